/// The syntax that the head of a request and the head of a response share (RFC 9112): lines
/// ended by CRLF and nothing else, header fields `name: value` with a token for a name and no
/// line folding, and `Content-Length` as digits. Strict, so that what one side sends cannot be
/// read two ways.
package enum HTTPHeadSyntax {
    /// A reason why bytes are not a valid head, for the error of the side that reads them.
    package struct Violation: Error, Equatable, Sendable {
        package let reason: String

        package init(_ reason: String) {
            self.reason = reason
        }
    }

    /// Where the blank line that ends a head begins in `buffer`, when it has arrived within the
    /// first `limit` + 4 bytes; a line feed without its carriage return is refused at once.
    /// `searched` carries where the search goes on between calls (0 for a new head).
    package static func headEnd(in buffer: [UInt8], searched: inout Int, limit: Int) throws(Violation) -> Int? {
        let end = min(buffer.count, limit + 4)
        var index = max(0, searched - 3)
        while index < end {
            if buffer[index] == 10, index == 0 || buffer[index - 1] != 13 { throw Violation("a line feed without a carriage return") }
            if index + 3 < end, buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        searched = max(0, end - 3)
        return nil
    }

    /// The lines of a head, each ended by CRLF (the last one's CRLF is that of the blank line).
    package static func lines(_ bytes: ArraySlice<UInt8>) throws(Violation) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            switch bytes[index] {
            case 13:
                guard index + 1 < bytes.endIndex, bytes[index + 1] == 10 else { throw Violation("a carriage return without a line feed") }
                lines.append(bytes[start..<index])
                index += 2
                start = index
            case 10:
                throw Violation("a line feed without a carriage return")
            case 0:
                throw Violation("a NUL byte in the header")
            default:
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    /// The name and value of a header field line, the value without the spaces around it.
    package static func field(_ line: ArraySlice<UInt8>) throws(Violation) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw Violation("a header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw Violation(line.first == 32 || line.first == 9 ? "a folded header line" : "a header name that is not a token")
        }
        let value = line[(colon + 1)...]
        // Field values: visible ASCII, spaces, tabs and bytes of other text (obs-text).
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { throw Violation("a control byte in a header value") }
        return (String(decoding: name, as: UTF8.self), String(String(decoding: value, as: UTF8.self)[...].trimmingSpaces))
    }

    /// The length a `Content-Length` value gives: digits only, at most 18 of them.
    package static func contentLength(_ value: String) throws(Violation) -> Int {
        guard !value.isEmpty, value.count <= 18, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(value) else {
            throw Violation("Content-Length '\(value.prefix(40))' is not a length")
        }
        return number
    }

    /// The size a chunk-size line gives (RFC 9112, 7.1): hexadecimal digits (leading zeros
    /// allowed, at most 2^60), then extensions, which are skipped.
    package static func chunkSize(_ line: ArraySlice<UInt8>) throws(Violation) -> Int {
        let digits = line.prefix { hexValue($0) != nil }
        let rest = line[digits.endIndex...].drop { $0 == 32 || $0 == 9 }
        guard !digits.isEmpty, rest.isEmpty || rest.first == UInt8(ascii: ";") else {
            throw Violation("the chunk size '\(String(decoding: line.prefix(20), as: UTF8.self))' is not hexadecimal")
        }
        guard rest.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { throw Violation("a control byte in a chunk extension") }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 15 else { throw Violation("a chunk size beyond 2^60 bytes") }
        return significant.reduce(0) { $0 << 4 | Int(hexValue($1) ?? 0) }
    }

    /// The value of a hexadecimal digit.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The bytes of a token (RFC 9110): letters, digits and ``!#$%&'*+-.^_`|~``.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension Substring {
    /// The text without the spaces and tabs around it.
    package var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
