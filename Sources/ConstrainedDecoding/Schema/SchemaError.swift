/// Why a JSON Schema cannot be compiled.
public enum SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The schema text is not JSON.
    case invalidJSON(String)
    /// A keyword the compiler cannot enforce exactly, at a JSON pointer.
    case unsupported(keyword: String, pointer: String, reason: String)
    /// A keyword whose value is not what JSON Schema allows there.
    case invalid(keyword: String, pointer: String, reason: String)
    /// The schema needs more than the compile budget allows (states, time or nesting).
    case tooLarge(String)

    /// The error of a schema that no value matches (`false`, `{"not": {}}`): a schema one can
    /// read, keep and check against, but not generate from.
    public static let acceptsNoValue = SchemaError.invalid(keyword: "", pointer: "", reason: "the schema accepts no value")

    public var description: String {
        switch self {
        case .invalidJSON(let reason): "the schema is not JSON: \(reason)"
        case .unsupported(let keyword, let pointer, let reason): "unsupported keyword '\(keyword)' at \(pointer.isEmpty ? "/" : pointer): \(reason)"
        case .invalid(let keyword, let pointer, let reason): "invalid keyword '\(keyword)' at \(pointer.isEmpty ? "/" : pointer): \(reason)"
        case .tooLarge(let reason): "the schema is too large to compile: \(reason)"
        }
    }
}
