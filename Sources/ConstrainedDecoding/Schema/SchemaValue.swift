/// A JSON value of a schema document, with object members in order. The decoding engine reads
/// its schemas itself, so that it depends on no other module.
import PartialJSON

indirect enum SchemaValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number, as written.
    case number(String)
    case string(String)
    case array([SchemaValue])
    case object([(key: String, value: SchemaValue)])

    /// How deeply a document may nest.
    static let maximumDepth = 256

    /// The value of a whole JSON document, read by PartialJSON's strict parser (RFC 8259).
    init(parsing text: String) throws(SchemaError) {
        do {
            self.init(try JSONValue(parsing: text, maximumDepth: Self.maximumDepth))
        } catch {
            throw .invalidJSON(error.description)
        }
    }

    /// `json`, its members in order and its numbers as written.
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number.text)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(SchemaValue.init))
        case .object(let members): self = .object(members.map { (key: $0.key, value: SchemaValue($0.value)) })
        }
    }

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
        var output: [UInt8] = []
        JSONValue.writeString(text, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
