/// Why a byte stream is not JSON, and where.
///
/// Positions are counted from the start of the stream, whatever chunks it arrived in:
/// ``offset`` in bytes from 0, ``line`` from 1, and ``column`` from 1 in bytes from the start of
/// the line (a line ends at `\n`; JSON allows line breaks only between tokens).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// A byte that cannot come next.
        case unexpectedByte(UInt8)
        /// The input ended before the value was complete.
        case unexpectedEndOfInput
        /// Bytes that are not well-formed UTF-8 (overlong forms, encoded surrogates and code
        /// points past U+10FFFF included).
        case invalidUTF8
        /// A raw control character (U+0000 to U+001F) inside a string; JSON requires an escape.
        case controlCharacterInString
        /// A backslash followed by a character that does not start an escape sequence.
        case invalidEscape
        /// A `\u` escape of a UTF-16 surrogate that is not part of a valid pair. Swift strings
        /// hold Unicode scalars only, so a lone surrogate cannot be represented.
        case loneSurrogate
        /// Arrays and objects nested deeper than the parser's limit.
        case depthLimitExceeded(Int)
    }

    /// What went wrong.
    public let reason: Reason
    /// What the grammar allowed at this point, in words.
    public let expected: String
    /// The offset of the offending byte (or of the end of input), from 0.
    public let offset: Int
    /// The line of the offending byte, from 1.
    public let line: Int
    /// The column of the offending byte in bytes, from 1.
    public let column: Int

    /// Creates an error.
    public init(reason: Reason, expected: String, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.expected = expected
        self.offset = offset
        self.line = line
        self.column = column
    }

    public var description: String {
        let what: String
        switch reason {
        case .unexpectedByte(let byte): what = "unexpected \(Self.describe(byte))"
        case .unexpectedEndOfInput: what = "unexpected end of input"
        case .invalidUTF8: what = "invalid UTF-8"
        case .controlCharacterInString: what = "unescaped control character in a string"
        case .invalidEscape: what = "invalid escape sequence"
        case .loneSurrogate: what = "a UTF-16 surrogate escape that is not part of a valid pair"
        case .depthLimitExceeded(let limit): what = "nesting deeper than \(limit) levels"
        }
        return "line \(line), column \(column) (byte \(offset)): \(what); expected \(expected)"
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}
