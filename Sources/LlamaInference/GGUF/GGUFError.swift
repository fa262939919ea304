/// Why a GGUF file cannot be read. Every offset, count and size in the file is checked against
/// the file before it is used, so a truncated, corrupted or hostile file ends here.
public enum GGUFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the GGUF magic.
    case notGGUF
    /// A GGUF version other than 2 and 3.
    case unsupportedVersion(UInt32)
    /// The file ends before `what`, which starts at `offset`.
    case truncated(what: String, offset: Int)
    /// A metadata value of an unknown type.
    case invalidValueType(UInt32, key: String)
    /// A string that is not UTF-8, at `offset`.
    case invalidString(offset: Int)
    /// A count or size larger than the file could hold.
    case implausibleSize(what: String, value: UInt64)
    /// A metadata key that appears twice.
    case duplicateKey(String)
    /// A required metadata key that is missing.
    case missingKey(String)
    /// A metadata key whose value has another type.
    case wrongType(key: String, expected: String)
    /// A tensor with invalid dimensions.
    case invalidTensor(name: String, reason: String)
    /// A tensor of a type this library cannot compute with.
    case unsupportedTensorType(name: String, type: UInt32)
    /// The file could not be opened or mapped.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notGGUF: "not a GGUF file (the magic 'GGUF' is missing)"
        case .unsupportedVersion(let version): "GGUF version \(version) is not supported (2 and 3 are)"
        case .truncated(let what, let offset): "the file ends before \(what) (at byte \(offset)): it is truncated"
        case .invalidValueType(let type, let key): "metadata '\(key)' has an unknown value type \(type)"
        case .invalidString(let offset): "the string at byte \(offset) is not UTF-8"
        case .implausibleSize(let what, let value): "\(what) of \(value) is larger than the file could hold"
        case .duplicateKey(let key): "metadata '\(key)' appears twice"
        case .missingKey(let key): "metadata '\(key)' is missing"
        case .wrongType(let key, let expected): "metadata '\(key)' is not \(expected)"
        case .invalidTensor(let name, let reason): "tensor '\(name)': \(reason)"
        case .unsupportedTensorType(let name, let type):
            "tensor '\(name)' has type \(GGMLType.name(of: type)) (\(type)), which is not supported; supported: "
                + GGMLType.allCases.filter(\.isComputable).map { GGMLType.name(of: $0.rawValue) }.joined(separator: ", ")
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}
