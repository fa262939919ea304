/// A JSON value of a schema document, with object members in order. The decoding engine reads
/// its schemas itself, so that it depends on no other module.
indirect enum SchemaValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number, as written.
    case number(String)
    case string(String)
    case array([SchemaValue])
    case object([(key: String, value: SchemaValue)])

    static func == (lhs: SchemaValue, rhs: SchemaValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): DecimalNumber(a) == DecimalNumber(b)
        // Code points, not Swift's canonical equivalence: JSON Schema tells "ñ" from "n" + "◌̃".
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && a.allSatisfy { member in b.contains { $0.key == member.key && $0.value == member.value } }
        default: false
        }
    }

    /// The value of the member `key`, when this is an object.
    subscript(key: String) -> SchemaValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    var objectMembers: [(key: String, value: SchemaValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var arrayValue: [SchemaValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The value written as compact JSON, numbers as written.
    var json: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return Self.quoted(text)
        case .array(let elements): return "[" + elements.map(\.json).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { Self.quoted($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    /// A string in its canonical JSON spelling: UTF-8, escaping only `"`, `\` and control
    /// characters, with the short escapes where they exist.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{8}": result += "\\b"
            case "\u{c}": result += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
