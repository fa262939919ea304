import HTTPWire

/// Reads HTTP/1.1 requests from the bytes of a connection as they arrive, strictly (CRLF line
/// ends, token names, one `Content-Length`, no line folding; bodies framed by `Content-Length` or
/// `Transfer-Encoding: chunked`, which `HTTPWire`'s `ChunkedDecoder` reads, no other transfer
/// coding) and within ``HTTPLimits``: whatever a client sends gives a request, a wait for more
/// bytes, or a typed error, never more memory than the limits allow.
public struct HTTPRequestParser: Sendable {
    public let limits: HTTPLimits
    private var buffer: [UInt8] = []
    /// Where the search for the end of the header fields goes on.
    private var searched = 0
    /// How a request's body is framed.
    private enum Framing: Sendable {
        case length(Int)
        case chunked(ChunkedDecoder)
    }

    /// The request whose header fields are read, waiting for its body.
    private var pending: (request: HTTPRequest, framing: Framing)?
    /// The bytes of a chunked body decoded so far, kept apart from `pending` so that they grow
    /// in place.
    private var chunkedBody: [UInt8] = []

    /// A parser for one connection.
    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Whether bytes of a request that is not complete yet have arrived.
    public var hasPartialRequest: Bool { pending != nil || !buffer.isEmpty }

    /// Whether the head of the request has been read and its body is awaited.
    public var isReadingBody: Bool { pending != nil }

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
        guard let (head, framing) = pending else { return nil }
        var request = head
        switch framing {
        case .length(let length):
            guard buffer.count >= length else { return nil }
            request.body = Array(buffer.prefix(length))
            buffer.removeFirst(length)
        case .chunked(var decoder):
            var start = 0
            var complete = false
            do {
                while !complete, let step = try decoder.next(in: buffer, from: &start) {
                    switch step {
                    case .data(let range): chunkedBody.append(contentsOf: buffer[range])
                    case .end: complete = true
                    }
                }
            } catch {
                throw Self.requestError(error)
            }
            buffer.removeFirst(start)
            guard complete else {
                pending = (request, .chunked(decoder))
                return nil
            }
            request.body = chunkedBody
            chunkedBody = []
        }
        pending = nil
        return request
    }

    /// What the end of the client's bytes means (it closed its side of the connection): nothing
    /// when no request is partway, else ``HTTPRequestError/malformed(_:)`` saying where the
    /// request was cut, so that the client hears at once why its request is not answered.
    public func finish() throws(HTTPRequestError) {
        guard let (_, framing) = pending else {
            if !buffer.isEmpty { throw .malformed("the request ended within its head") }
            return
        }
        switch framing {
        case .length(let length):
            throw .malformed("the request ended \(length - buffer.count) bytes before the end of its body")
        case .chunked(let decoder):
            do {
                try decoder.finish()
            } catch {
                throw Self.requestError(error)
            }
        }
    }

    /// The request error of a chunked body's violation.
    private static func requestError(_ violation: ChunkedDecoder.Violation) -> HTTPRequestError {
        switch violation {
        case .malformed(let reason), .incomplete(let reason): .malformed(reason)
        case .trailersTooLarge: .headerTooLarge
        case .bodyTooLarge(let length, let limit): .bodyTooLarge(length: length, limit: limit)
        }
    }

    /// Where the blank line that ends the header fields begins, when it has arrived; a line
    /// feed without its carriage return is refused at once.
    private mutating func headerEnd() throws(HTTPRequestError) -> Int? {
        do {
            return try HTTPHeadSyntax.headEnd(in: buffer, searched: &searched, limit: limits.maximumHeaderBytes)
        } catch {
            throw .malformed(error.reason)
        }
    }

    /// The request line and header fields, and how the body that follows is framed.
    private static func head(_ bytes: ArraySlice<UInt8>, limits: HTTPLimits) throws(HTTPRequestError) -> (HTTPRequest, Framing) {
        let lines: [ArraySlice<UInt8>]
        do {
            lines = try HTTPHeadSyntax.lines(bytes)
        } catch {
            throw .malformed(error.reason)
        }
        guard let requestLine = lines.first else { throw .malformed("empty request") }
        var request = try self.requestLine(requestLine)
        guard lines.count - 1 <= limits.maximumHeaderCount else { throw .headerTooLarge }
        var length: Int?
        var isChunked = false
        for line in lines.dropFirst() {
            let (name, value): (String, String)
            do {
                (name, value) = try HTTPHeadSyntax.field(line)
            } catch {
                throw .malformed(error.reason)
            }
            request.headers.append((name, value))
            switch name.lowercased() {
            case "content-length":
                let number: Int
                do {
                    number = try HTTPHeadSyntax.contentLength(value)
                } catch {
                    throw .malformed(error.reason)
                }
                guard length == nil || length == number else { throw .malformed("two different Content-Length fields") }
                length = number
            case "transfer-encoding":
                // Only chunked, once: any other coding would have to be undone to read the body.
                guard value.lowercased() == "chunked", !isChunked else { throw .unsupportedTransferEncoding(String(value.prefix(40))) }
                isChunked = true
            default:
                break
            }
        }
        if isChunked {
            // Both framings at once is how requests are smuggled past proxies (RFC 9112, 6.1).
            guard length == nil else { throw .malformed("both Transfer-Encoding and Content-Length") }
            let decoderLimits = ChunkedDecoder.Limits(maximumTrailerBytes: limits.maximumHeaderBytes, maximumBodyBytes: limits.maximumBodyBytes)
            return (request, .chunked(ChunkedDecoder(limits: decoderLimits)))
        }
        let bodyLength = length ?? 0
        guard bodyLength <= limits.maximumBodyBytes else { throw .bodyTooLarge(length: bodyLength, limit: limits.maximumBodyBytes) }
        return (request, .length(bodyLength))
    }

    private static func requestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> HTTPRequest {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("the request line is not 'METHOD TARGET HTTP/1.1'") }
        let method = parts[0]
        guard !method.isEmpty, method.count <= 16, method.allSatisfy(HTTPHeadSyntax.isTokenByte) else { throw .malformed("the method is not a token") }
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
}
