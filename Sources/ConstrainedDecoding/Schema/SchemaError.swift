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

    public var description: String {
        switch self {
        case .invalidJSON(let reason): "the schema is not JSON: \(reason)"
        case .unsupported(let keyword, let pointer, let reason): "unsupported keyword '\(keyword)' at \(pointer.isEmpty ? "/" : pointer): \(reason)"
        case .invalid(let keyword, let pointer, let reason): "invalid keyword '\(keyword)' at \(pointer.isEmpty ? "/" : pointer): \(reason)"
        case .tooLarge(let reason): "the schema is too large to compile: \(reason)"
        }
    }
}
