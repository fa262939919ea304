/// Reads HTTP/1.1 requests from the bytes of a connection as they arrive, strictly (CRLF line
/// ends, token names, one `Content-Length`, no line folding, no transfer codings) and within
/// ``HTTPLimits``: whatever a client sends gives a request, a wait for more bytes, or a typed
/// error, never more memory than the limits allow.
public struct HTTPRequestParser: Sendable {
    public let limits: HTTPLimits
    private var buffer: [UInt8] = []
    /// Where the search for the end of the header fields goes on.
    private var searched = 0
    /// The request whose header fields are read, waiting for its body.
    private var pending: (request: HTTPRequest, bodyLength: Int)?

    /// A parser for one connection.
    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Whether bytes of a request that is not complete yet have arrived.
    public var hasPartialRequest: Bool { pending != nil || !buffer.isEmpty }

    /// Adds bytes read from the connection.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete request, or `nil` when more bytes are needed.
    public mutating func nextRequest() throws(HTTPRequestError) -> HTTPRequest? {
        if pending == nil {
            // Empty lines before a request line are skipped (RFC 9112, 2.2).
            var blank = 0
            while blank + 1 < buffer.count, buffer[blank] == 13, buffer[blank + 1] == 10 { blank += 2 }
            if blank > 0 {
                buffer.removeFirst(blank)
                searched = 0
            }
            guard let end = try headerEnd() else {
                // Refused once the whole window in which the end may lie has been searched.
                if buffer.count >= limits.maximumHeaderBytes + 4 { throw .headerTooLarge }
                return nil
            }
            guard end <= limits.maximumHeaderBytes else { throw .headerTooLarge }
            let head = try Self.head(buffer[..<end], limits: limits)
            buffer.removeFirst(end + 4)
            searched = 0
            pending = head
        }
        guard let (request, length) = pending, buffer.count >= length else { return nil }
        var complete = request
        complete.body = Array(buffer.prefix(length))
        buffer.removeFirst(length)
        pending = nil
        return complete
    }

    /// Where the blank line that ends the header fields begins, when it has arrived; a line
    /// feed without its carriage return is refused at once.
    private mutating func headerEnd() throws(HTTPRequestError) -> Int? {
        let limit = min(buffer.count, limits.maximumHeaderBytes + 4)
        var index = max(0, searched - 3)
        while index < limit {
            if buffer[index] == 10, index == 0 || buffer[index - 1] != 13 { throw .malformed("a line feed without a carriage return") }
            if index + 3 < limit, buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        searched = max(0, limit - 3)
        return nil
    }

    /// The request line and header fields, and the length of the body that follows.
    private static func head(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits) throws(HTTPRequestError) -> (HTTPRequest, Int) {
        let lines = try self.lines(bytes)
        guard let requestLine = lines.first else { throw .malformed("empty request") }
        var request = try self.requestLine(requestLine)
        guard lines.count - 1 <= limits.maximumHeaderCount else { throw .headerTooLarge }
        var length: Int?
        for line in lines.dropFirst() {
            let (name, value) = try field(line)
            request.headers.append((name, value))
            switch name.lowercased() {
            case "content-length":
                guard !value.isEmpty, value.count <= 18, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(value) else {
                    throw .malformed("Content-Length '\(value.prefix(40))' is not a length")
                }
                guard length == nil || length == number else { throw .malformed("two different Content-Length fields") }
                length = number
            case "transfer-encoding":
                throw .unsupportedTransferEncoding(String(value.prefix(40)))
            default:
                break
            }
        }
        let bodyLength = length ?? 0
        guard bodyLength <= limits.maximumBodyBytes else { throw .bodyTooLarge(length: bodyLength, limit: limits.maximumBodyBytes) }
        return (request, bodyLength)
    }

    /// The lines of the head, each ended by CRLF (the last one's CRLF is that of the blank line).
    private static func lines(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            switch bytes[index] {
            case 13:
                guard index + 1 < bytes.endIndex, bytes[index + 1] == 10 else { throw .malformed("a carriage return without a line feed") }
                lines.append(bytes[start..<index])
                index += 2
                start = index
            case 10:
                throw .malformed("a line feed without a carriage return")
            case 0:
                throw .malformed("a NUL byte in the header")
            default:
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    private static func requestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPRequest {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("the request line is not 'METHOD TARGET HTTP/1.1'") }
        let method = parts[0]
        guard !method.isEmpty, method.count <= 16, method.allSatisfy(isTokenByte) else { throw .malformed("the method is not a token") }
        let target = parts[1]
        guard !target.isEmpty, target.count <= 8192, target.first == UInt8(ascii: "/") || target.elementsEqual("*".utf8),
            target.allSatisfy({ $0 > 32 && $0 < 127 })
        else { throw .malformed("the target is not a path") }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        case _ where version.hasPrefix("HTTP/") && version.count <= 16: throw .unsupportedVersion(version)
        default: throw .malformed("the version is not HTTP/1.x")
        }
        return HTTPRequest(method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self), minorVersion: minor)
    }

    private static func field(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> (String, String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .malformed("a header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw .malformed(line.first == 32 || line.first == 9 ? "a folded header line" : "a header name that is not a token")
        }
        let value = line[(colon + 1)...]
        // Field values: visible ASCII, spaces, tabs and bytes of other text (obs-text).
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { throw .malformed("a control byte in a header value") }
        return (String(decoding: name, as: UTF8.self), String(String(decoding: value, as: UTF8.self)[...].trimmingSpaces))
    }

    /// The bytes of a token (RFC 9110): letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
