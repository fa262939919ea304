import PartialJSON

/// A JSON value of a schema document or instance: PartialJSON's `JSONValue`, object members in
/// order and numbers as written. Two instances are the same for JSON Schema (`const`, `enum`,
/// `uniqueItems`) by ``JSONValue/isSameInstance(as:)``, not by `==`, which compares spellings.
typealias SchemaValue = JSONValue

extension JSONValue {
    /// How deeply a schema document may nest.
    static let maximumSchemaDepth = 256

    /// The value of a whole schema document or instance, read by PartialJSON's strict parser
    /// (RFC 8259).
    static func schemaDocument(_ text: String) throws(SchemaError) -> JSONValue {
        do {
            return try JSONValue(parsing: text, maximumDepth: maximumSchemaDepth)
        } catch {
            throw .invalidJSON(error.description)
        }
    }

    /// A schema document given as a value, refused when it nests deeper than text may
    /// (``maximumSchemaDepth``), which the compiler's recursion could not take.
    static func schemaDocument(_ value: JSONValue) throws(SchemaError) -> JSONValue {
        guard value.nestsWithin(maximumSchemaDepth) else {
            throw .invalidJSON("the document nests deeper than \(maximumSchemaDepth) levels")
        }
        return value
    }

    /// Whether no array or object in the value lies more than `levels` deep.
    private func nestsWithin(_ levels: Int) -> Bool {
        switch self {
        case .array(let elements): levels > 0 && elements.allSatisfy { $0.nestsWithin(levels - 1) }
        case .object(let object): levels > 0 && object.allSatisfy { $0.value.nestsWithin(levels - 1) }
        default: true
        }
    }

    /// Whether the two are the same JSON instance as JSON Schema compares them: numbers by value
    /// (`1.0` is `1`), strings by code points (not Swift's canonical equivalence: JSON Schema
    /// tells "ñ" from "n" + "◌̃"), arrays item by item, objects by their members in any order.
    func isSameInstance(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): DecimalNumber(a.text) == DecimalNumber(b.text)
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): a.elementsEqual(b) { $0.isSameInstance(as: $1) }
        case (.object(let a), .object(let b)):
            a.count == b.count && a.allSatisfy { member in b.contains { $0.key == member.key && $0.value.isSameInstance(as: member.value) } }
        default: false
        }
    }

    /// A string in its canonical JSON spelling: UTF-8, escaping only `"`, `\` and control
    /// characters, with the short escapes where they exist.
    static func quoted(_ text: String) -> String {
        var output: [UInt8] = []
        writeString(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}

extension Sequence<JSONValue> {
    /// Whether some element is the same instance as `value` for JSON Schema.
    func containsInstance(_ value: JSONValue) -> Bool {
        contains { $0.isSameInstance(as: value) }
    }
}

extension JSONValue {
    /// An object of `pairs`, in order.
    static func members(_ pairs: [(key: String, value: JSONValue)]) -> JSONValue {
        .object(JSONObject(pairs.map { JSONObject.Member(key: $0.key, value: $0.value) }))
    }

    /// The members of an object as name-value pairs, in order; `nil` for any other value.
    var objectMembers: [(key: String, value: JSONValue)]? {
        guard case .object(let object) = self else { return nil }
        return object.members.map { (key: $0.key, value: $0.value) }
    }
}

extension DecimalNumber {
    /// The number of a schema value.
    init?(_ number: JSONNumber) {
        self.init(number.text)
    }

    /// The number in plain JSON form (digits, a point, no exponent).
    var jsonNumber: JSONNumber {
        JSONNumber(plainText) ?? 0
    }
}
