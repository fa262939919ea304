/// Reads an HTTP/1.1 response from the bytes of a connection as they arrive, strictly (the
/// syntax of ``HTTPHeadSyntax``, one `Content-Length`, `chunked` as the only transfer coding)
/// and within ``Limits``: its head, then its body piece by piece as it comes (by its
/// `Content-Length`, in chunks read by ``ChunkedDecoder``, or until the connection closes),
/// then its end. Whatever a server sends gives a part, a wait for more bytes, or a typed error,
/// never more memory than the limits and the bytes of one read.
package struct HTTPResponseParser: Sendable {
    /// The bounds on what a response may send outside its body.
    package struct Limits: Sendable {
        /// The most bytes of the status line and header fields together, and of trailer fields.
        package var maximumHeadBytes: Int
        /// The most header fields.
        package var maximumHeaderCount: Int
        /// The most bytes of a chunk-size line (with its extensions).
        package var maximumChunkLineBytes: Int

        /// Limits of 64 KiB of head, 100 fields and 1 KiB per chunk-size line.
        package init(maximumHeadBytes: Int = 64 * 1024, maximumHeaderCount: Int = 100, maximumChunkLineBytes: Int = 1024) {
            self.maximumHeadBytes = maximumHeadBytes
            self.maximumHeaderCount = maximumHeaderCount
            self.maximumChunkLineBytes = maximumChunkLineBytes
        }
    }

    /// The status line's code and the header fields, names as sent.
    package struct Head: Sendable, Equatable {
        package var status: Int
        package var headers: [Field]

        /// The value of the first field named `name` (compared without case).
        package func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// A header field.
    package struct Field: Sendable, Equatable {
        package var name: String
        package var value: String
    }

    /// What the response gives next.
    package enum Part: Sendable, Equatable {
        case head(Head)
        case body([UInt8])
        case end
    }

    private enum State {
        case head
        case length(remaining: Int)
        case chunked(ChunkedDecoder)
        case untilClose
        case done
    }

    package let limits: Limits
    private var buffer: [UInt8] = []
    /// Where the search for the end of a head goes on.
    private var searched = 0
    private var state = State.head

    /// A parser for the response to one request.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether the response has ended.
    package var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Adds bytes read from the connection.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next part, or `nil` when more bytes are needed (or the response has ended).
    package mutating func next() throws(HTTPResponseError) -> Part? {
        while true {
            switch state {
            case .head:
                guard let head = try nextHead() else { return nil }
                return .head(head)
            case .length(let remaining):
                guard remaining > 0 else {
                    state = .done
                    return .end
                }
                guard !buffer.isEmpty else { return nil }
                let count = min(remaining, buffer.count)
                state = .length(remaining: remaining - count)
                return .body(take(count))
            case .untilClose:
                guard !buffer.isEmpty else { return nil }
                return .body(take(buffer.count))
            case .chunked(var decoder):
                var start = 0
                let step: ChunkedDecoder.Step?
                do {
                    step = try decoder.next(in: buffer, from: &start)
                } catch {
                    throw responseError(error)
                }
                state = decoder.isComplete ? .done : .chunked(decoder)
                switch step {
                case .data(let range):
                    return .body(take(range, upTo: start))
                case .end:
                    buffer.removeFirst(start)
                    return .end
                case nil:
                    buffer.removeFirst(start)
                    return nil
                }
            case .done:
                return nil
            }
        }
    }

    /// What the connection's end means: the end of a body read until it closes, else an error
    /// when the response is not complete.
    package mutating func finish() throws(HTTPResponseError) -> Part? {
        switch state {
        case .done:
            return nil
        case .untilClose:
            state = .done
            return .end
        default:
            throw .incomplete
        }
    }

    private mutating func take(_ count: Int) -> [UInt8] {
        take(0..<count, upTo: count)
    }

    /// The bytes of `range`, dropping those before `end` from the buffer (without a copy when
    /// they are the whole buffer).
    private mutating func take(_ range: Range<Int>, upTo end: Int) -> [UInt8] {
        if range == 0..<buffer.count, end == buffer.count {
            let bytes = buffer
            buffer = []
            return bytes
        }
        let bytes = Array(buffer[range])
        buffer.removeFirst(end)
        return bytes
    }

    /// The response error of a chunked body's violation.
    private func responseError(_ violation: ChunkedDecoder.Violation) -> HTTPResponseError {
        switch violation {
        case .malformed(let reason): .malformed(reason)
        case .trailersTooLarge: .headTooLarge(limit: limits.maximumHeadBytes)
        case .bodyTooLarge(let length, _): .malformed("a body of \(length) bytes")
        case .incomplete: .incomplete
        }
    }

    /// Where the blank line that ends a head begins, once it has arrived within the limit;
    /// refused as soon as the limit is passed without it.
    private mutating func headEnd() throws(HTTPResponseError) -> Int? {
        let end: Int?
        do {
            end = try HTTPHeadSyntax.headEnd(in: buffer, searched: &searched, limit: limits.maximumHeadBytes)
        } catch {
            throw .malformed(error.reason)
        }
        guard let end else {
            if buffer.count >= limits.maximumHeadBytes + 4 { throw .headTooLarge(limit: limits.maximumHeadBytes) }
            return nil
        }
        guard end <= limits.maximumHeadBytes else { throw .headTooLarge(limit: limits.maximumHeadBytes) }
        return end
    }

    /// The head of the final response, once it has arrived (informational ones are skipped).
    private mutating func nextHead() throws(HTTPResponseError) -> Head? {
        while true {
            guard let end = try headEnd() else { return nil }
            let head = try Self.head(buffer[..<end], limits: limits)
            buffer.removeFirst(end + 4)
            searched = 0
            switch head.status {
            case 101:
                throw .malformed("a switch of protocols that was not asked for")
            case 100..<200:
                continue
            case 204, 304:
                state = .length(remaining: 0)
            default:
                state = try Self.bodyState(of: head, limits: limits)
            }
            return head
        }
    }

    /// How the body of a response with this head is framed (RFC 9112, 6.3).
    private static func bodyState(of head: Head, limits: Limits) throws(HTTPResponseError) -> State {
        var length: Int?
        var codings: [String] = []
        for field in head.headers {
            switch field.name.lowercased() {
            case "content-length":
                let number: Int
                do {
                    number = try HTTPHeadSyntax.contentLength(field.value)
                } catch {
                    throw .malformed(error.reason)
                }
                guard length == nil || length == number else { throw .malformed("two different Content-Length fields") }
                length = number
            case "transfer-encoding":
                codings += field.value.split(separator: ",").map { String($0[...].trimmingSpaces).lowercased() }
            default:
                break
            }
        }
        if !codings.isEmpty {
            guard codings == ["chunked"] else { throw .unsupportedTransferEncoding(String(codings.joined(separator: ", ").prefix(40))) }
            guard length == nil else { throw .malformed("both Transfer-Encoding and Content-Length") }
            return .chunked(ChunkedDecoder(limits: ChunkedDecoder.Limits(
                maximumSizeLineBytes: limits.maximumChunkLineBytes, maximumTrailerBytes: limits.maximumHeadBytes)))
        }
        if let length { return .length(remaining: length) }
        return .untilClose
    }

    private static func head(_ bytes: ArraySlice<UInt8>, limits: Limits) throws(HTTPResponseError) -> Head {
        let lines: [ArraySlice<UInt8>]
        do {
            lines = try HTTPHeadSyntax.lines(bytes)
        } catch {
            throw .malformed(error.reason)
        }
        guard let statusLine = lines.first else { throw .malformed("no status line") }
        var head = Head(status: try status(statusLine), headers: [])
        guard lines.count - 1 <= limits.maximumHeaderCount else { throw .headTooLarge(limit: limits.maximumHeadBytes) }
        for line in lines.dropFirst() {
            do {
                let (name, value) = try HTTPHeadSyntax.field(line)
                head.headers.append(Field(name: name, value: value))
            } catch {
                throw .malformed(error.reason)
            }
        }
        return head
    }

    /// The code of a status line `HTTP/1.1 200 OK` (the reason phrase may be empty or absent).
    private static func status(_ line: ArraySlice<UInt8>) throws(HTTPResponseError) -> Int {
        guard let space = line.firstIndex(of: 32) else { throw .malformed("the status line is not 'HTTP/1.1 CODE REASON'") }
        let version = String(decoding: line[..<space], as: UTF8.self)
        switch version {
        case "HTTP/1.1", "HTTP/1.0": break
        case _ where version.hasPrefix("HTTP/") && version.count <= 16: throw .unsupportedVersion(version)
        default: throw .malformed("the status line does not begin with HTTP/1.x")
        }
        let rest = line[(space + 1)...]
        let code = rest.prefix(3)
        guard code.count == 3, code.allSatisfy({ $0 >= 48 && $0 <= 57 }), code.first != 48,
            rest.count == 3 || rest[rest.startIndex + 3] == 32
        else { throw .malformed("the status code is not three digits") }
        guard rest.dropFirst(3).allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { throw .malformed("a control byte in the reason phrase") }
        return code.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
}
