import HTTPWire
import Testing

/// The response parser: bodies framed by Content-Length, in chunks and until the connection
/// closes, read the same whatever the pieces the bytes arrive in; each kind of bad response
/// refused with a typed error; nothing held beyond the limits.
@Suite struct HTTPResponseParserTests {
    /// The head and the body of a response given whole, or the error it gives.
    static func parse(_ text: String, limits: HTTPResponseParser.Limits = .init(), closed: Bool = true) throws(HTTPResponseError) -> (HTTPResponseParser.Head?, String, Bool) {
        try parse(pieces: [Array(text.utf8)], limits: limits, closed: closed)
    }

    static func parse(pieces: [[UInt8]], limits: HTTPResponseParser.Limits = .init(), closed: Bool = true) throws(HTTPResponseError) -> (HTTPResponseParser.Head?, String, Bool) {
        var parser = HTTPResponseParser(limits: limits)
        var head: HTTPResponseParser.Head?
        var body: [UInt8] = []
        var ended = false
        func take(_ part: HTTPResponseParser.Part) {
            switch part {
            case .head(let value): head = value
            case .body(let bytes): body += bytes
            case .end: ended = true
            }
        }
        for piece in pieces {
            parser.append(piece)
            while let part = try parser.next() { take(part) }
        }
        if closed, let part = try parser.finish() { take(part) }
        return (head, String(decoding: body, as: UTF8.self), ended)
    }

    static let chunked = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "7\r\ndata: 1\r\n" + "a;name=value\r\n\n\ndata: 22\r\n" + "0\r\nX-Trailer: yes\r\n\r\n"

    @Test func aChunkedBodyIsReadWhateverItsPieces() throws {
        let (head, body, ended) = try Self.parse(Self.chunked, closed: false)
        #expect(head?.status == 200 && head?.header("content-type") == "text/event-stream")
        #expect(body == "data: 1\n\ndata: 22" && ended)
        let bytes = Array(Self.chunked.utf8)
        for cut in 1..<bytes.count {
            let (_, pieces, end) = try Self.parse(pieces: [Array(bytes[..<cut]), Array(bytes[cut...])], closed: false)
            #expect(pieces == body && end, "cut at \(cut)")
        }
        let (_, oneByOne, end) = try Self.parse(pieces: bytes.map { [$0] }, closed: false)
        #expect(oneByOne == body && end)
    }

    @Test func aContentLengthBodyEndsAtItsLength() throws {
        let text = "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nContent-Length: 5\r\n\r\nhello"
        let (head, body, ended) = try Self.parse(text + "ignored", closed: false)
        #expect(head?.status == 429 && head?.header("retry-after") == "3" && body == "hello" && ended)
        #expect(throws: HTTPResponseError.incomplete) { try Self.parse(String(text.dropLast(2))) }
    }

    @Test func aBodyWithoutLengthEndsWhenTheConnectionCloses() throws {
        let (head, body, ended) = try Self.parse("HTTP/1.0 200 OK\r\n\r\nuntil the end")
        #expect(head?.status == 200 && body == "until the end" && ended)
    }

    @Test func informationalResponsesAreSkippedAndSomeStatusesHaveNoBody() throws {
        let (head, body, ended) = try Self.parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok")
        #expect(head?.status == 200 && body == "ok" && ended)
        let (noContent, empty, done) = try Self.parse("HTTP/1.1 204 No Content\r\n\r\n", closed: false)
        #expect(noContent?.status == 204 && empty.isEmpty && done)
    }

    @Test func aConnectionThatClosesMidBodyIsIncomplete() {
        #expect(throws: HTTPResponseError.incomplete) { try Self.parse(String(Self.chunked.prefix(100))) }
        #expect(throws: HTTPResponseError.incomplete) { try Self.parse("HTTP/1.1 200 OK\r\nContent-Le") }
        #expect(throws: HTTPResponseError.incomplete) { try Self.parse("") }
    }

    @Test func badStatusLinesAreRefused() {
        for text in ["HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 abc\r\n\r\n", "ICY 200 OK\r\n\r\n", "HTTP/1.1200 OK\r\n\r\n",
                     "HTTP/1.1 200 O\u{1}K\r\n\r\n", "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n", "HTTP/1.1 101 Switching\r\n\r\n"] {
            #expect(throws: HTTPResponseError.self, "\(text.debugDescription)") { try Self.parse(text) }
        }
        #expect(throws: HTTPResponseError.unsupportedVersion("HTTP/2")) { try Self.parse("HTTP/2 200 OK\r\n\r\n") }
    }

    @Test func badHeaderFieldsAreRefused() {
        for field in ["Bad Name: x", " folded: x", "No-Colon", "X: a\u{0}b", "Content-Length: 1x", "Content-Length: -1"] {
            let text = "HTTP/1.1 200 OK\r\n\(field)\r\n\r\n"
            #expect(throws: HTTPResponseError.self, "\(field.debugDescription)") { try Self.parse(text) }
        }
        #expect(throws: HTTPResponseError.malformed("two different Content-Length fields")) {
            try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n")
        }
        #expect(throws: HTTPResponseError.malformed("both Transfer-Encoding and Content-Length")) {
            try Self.parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n")
        }
        #expect(throws: HTTPResponseError.unsupportedTransferEncoding("gzip, chunked")) {
            try Self.parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
        }
    }

    @Test func oversizedHeadsAreRefusedWithoutWaitingForTheirEnd() {
        let limits = HTTPResponseParser.Limits(maximumHeadBytes: 1024, maximumHeaderCount: 10)
        let long = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 2000)
        #expect(throws: HTTPResponseError.headTooLarge(limit: 1024)) { try Self.parse(long, limits: limits, closed: false) }
        let many = "HTTP/1.1 200 OK\r\n" + String(repeating: "X: 1\r\n", count: 11) + "\r\n"
        #expect(throws: HTTPResponseError.headTooLarge(limit: 1024)) { try Self.parse(many, limits: limits, closed: false) }
        let trailers = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: " + String(repeating: "a", count: 2000)
        #expect(throws: HTTPResponseError.headTooLarge(limit: 1024)) { try Self.parse(trailers, limits: limits, closed: false) }
    }

    /// The chunked-body decoder's refusals (ChunkedDecoderTests) reach the client as malformed
    /// responses, with the response parser's own limit on a chunk-size line.
    @Test func badChunksAreRefused() {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        for body in ["zz\r\n", "3\r\nabcdef\r\n", "3\nabc\r\n", "0\r\nBad Name: x\r\n\r\n"] {
            #expect(throws: HTTPResponseError.self, "\(body.debugDescription)") { try Self.parse(head + body, closed: false) }
        }
        // Leading zeros are allowed; a size beyond 2^60 is not.
        #expect((try? Self.parse(head + "0003\r\nabc\r\n0\r\n\r\n", closed: false).1) == "abc")
        #expect(throws: HTTPResponseError.malformed("a chunk size beyond 2^60 bytes")) { try Self.parse(head + "1000000000000000\r\n", closed: false) }
        #expect(throws: HTTPResponseError.malformed("a chunk longer than its size (its data does not end with CRLF)")) {
            try Self.parse(head + "3\r\nabcdef\r\n", closed: false)
        }
        let limits = HTTPResponseParser.Limits(maximumChunkLineBytes: 32)
        #expect(throws: HTTPResponseError.malformed("a chunk-size line longer than 32 bytes")) {
            try Self.parse(head + "1;" + String(repeating: "e", count: 40) + "\r\n", limits: limits, closed: false)
        }
    }
}
