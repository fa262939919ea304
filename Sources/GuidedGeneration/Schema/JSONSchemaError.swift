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

    public var description: String {
        "JSON Schema keyword '\(keyword)' at \(pointer.isEmpty ? "the root" : pointer): \(reason)"
    }
}
