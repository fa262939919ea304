import ConstrainedDecoding

/// Why a JSON Schema cannot be read: the keyword, where it is, and why.
public struct JSONSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The keyword at fault, e.g. `format`.
    public let keyword: String
    /// The JSON pointer of the keyword in the document, e.g. `/properties/date/format`.
    public let pointer: String
    /// Why it cannot be read.
    public let reason: String

    /// Creates an error.
    public init(keyword: String, pointer: String, reason: String) {
        self.keyword = keyword
        self.pointer = pointer
        self.reason = reason
    }

    /// The error of the decoding engine's schema compiler, by keyword and pointer.
    init(_ error: ConstrainedDecoding.SchemaError) {
        switch error {
        case .unsupported(let keyword, let pointer, let reason), .invalid(let keyword, let pointer, let reason):
            self.init(keyword: keyword, pointer: pointer, reason: reason)
        case .invalidJSON(let reason), .tooLarge(let reason):
            self.init(keyword: "", pointer: "", reason: reason)
        }
    }

    public var description: String {
        "JSON Schema keyword '\(keyword)' at \(pointer.isEmpty ? "the root" : pointer): \(reason)"
    }
}
