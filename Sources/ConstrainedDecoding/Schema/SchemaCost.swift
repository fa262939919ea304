import PartialJSON

/// A bound on what compiling a schema costs, read before compiling it: the bytes of the values
/// that `enum` and `const` list, which the automaton spells out one by one. A document whose
/// values exceed the state budget is refused at once, naming the largest list, rather than after
/// the compiler has built states up to its budget.
enum SchemaCost {
    /// Throws ``SchemaError/tooLarge(_:)`` when the literal values of `document` take more bytes
    /// than `budget`.
    static func check(_ document: JSONValue, budget: Int) throws(SchemaError) {
        var total = 0
        var largest: (pointer: String, keyword: String, bytes: Int)?
        var pending: [(value: JSONValue, pointer: String)] = [(document, "")]
        while let (value, pointer) = pending.popLast() {
            if let elements = value.arrayValue {
                for (index, element) in elements.enumerated() { pending.append((element, pointer + "/\(index)")) }
                continue
            }
            guard let object = value.objectValue else { continue }
            for member in object {
                let path = pointer + "/" + Self.escaped(member.key)
                switch member.key {
                case "enum", "const":
                    // An enum is an array; anything else here is a schema named so (a property).
                    guard member.key == "const" || member.value.arrayValue != nil else {
                        pending.append((member.value, path))
                        continue
                    }
                    let bytes = member.value.jsonString.utf8.count
                    total += bytes
                    if largest.map({ bytes > $0.bytes }) ?? true { largest = (pointer, member.key, bytes) }
                case "default", "examples":
                    // Data, not schemas.
                    continue
                default:
                    pending.append((member.value, path))
                }
            }
        }
        guard total > budget, let largest else { return }
        throw .tooLarge(
            "its enum and const values take \(total) bytes, more than the budget of \(budget); the largest, '\(largest.keyword)' at '\(largest.pointer)', takes \(largest.bytes)"
        )
    }

    private static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
