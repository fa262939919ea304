import GuidedServer
import Testing

/// The request parser: requests whole, in pieces and pipelined; each kind of bad input refused
/// with its status; nothing held beyond the limits.
@Suite struct HTTPRequestParserTests {
    static let post = "POST /v1/chat/completions?x=1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 7\r\nAuthorization:  Bearer k \r\n\r\n{\"a\":1}"

    static func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) throws(HTTPRequestError) -> [HTTPRequest] {
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(text.utf8))
        var requests: [HTTPRequest] = []
        while let request = try parser.nextRequest() { requests.append(request) }
        return requests
    }

    @Test func aRequestIsReadWhole() throws {
        let requests = try Self.parse(Self.post)
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == "POST" && request.path == "/v1/chat/completions" && request.minorVersion == 1)
        #expect(request.header("content-length") == "7" && request.header("AUTHORIZATION") == "Bearer k")
        #expect(request.body == Array("{\"a\":1}".utf8))
        #expect(request.keepsAlive)
    }

    @Test func bytesArrivingOneByOneGiveTheSameRequests() throws {
        let text = "\r\n" + Self.post + "GET /health HTTP/1.0\r\n\r\n"
        var parser = HTTPRequestParser()
        var requests: [HTTPRequest] = []
        for byte in Array(text.utf8) {
            parser.append([byte])
            while let request = try parser.nextRequest() { requests.append(request) }
        }
        #expect(requests == (try Self.parse(text)))
        #expect(requests.map(\.path) == ["/v1/chat/completions", "/health"])
        #expect(requests.last?.keepsAlive == false)
        #expect(!parser.hasPartialRequest)
    }

    @Test func badRequestsAreRefusedWithTheirStatus() {
        let cases: [(String, Int)] = [
            ("GET / HTTP/1.1\nHost: x\n\n", 400),  // bare line feeds
            ("GET / HTTP/1.1\r\nHost x\r\n\r\n", 400),  // no colon
            ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400),
            ("GET  / HTTP/1.1\r\n\r\n", 400),
            ("GET relative HTTP/1.1\r\n\r\n", 400),
            ("G\u{1}T / HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\n\r\n", 505),
            ("GET / SMTP\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\nab\r\n0\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFF\r\n", 400),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n895441\r\n", 413),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nBad Name: x\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nContent-Length: 9000001\r\n\r\n", 413),
            ("GET / HTTP/1.1\r\nX: a\u{7f}b\r\n\r\n", 400),
        ]
        for (text, status) in cases {
            #expect(throws: HTTPRequestError.self, "\(text.debugDescription)") { try Self.parse(text) }
            do {
                _ = try Self.parse(text)
            } catch {
                #expect(error.status == status, "\(text.debugDescription): \(error)")
            }
        }
    }

    @Test func headersBeyondTheLimitAreRefusedWithoutWaitingForTheirEnd() {
        let limits = HTTPLimits(maximumHeaderBytes: 1024, maximumHeaderCount: 10, maximumBodyBytes: 100)
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array(("GET / HTTP/1.1\r\nX-Long: " + String(repeating: "a", count: 2000)).utf8))
        #expect(throws: HTTPRequestError.headerTooLarge) { try parser.nextRequest() }
        let many = "GET / HTTP/1.1\r\n" + (0..<11).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        #expect(throws: HTTPRequestError.headerTooLarge) { try Self.parse(many, limits: limits) }
        #expect(throws: HTTPRequestError.bodyTooLarge(length: 101, limit: 100)) {
            try Self.parse("POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n", limits: limits)
        }
    }

    @Test func aBodyIsWaitedForUntilItsLengthArrives() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nab".utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(parser.hasPartialRequest)
        parser.append(Array("cdGET".utf8))
        #expect(try parser.nextRequest()?.body == Array("abcd".utf8))
        #expect(try parser.nextRequest() == nil)
        #expect(parser.hasPartialRequest)
    }

    @Test func chunkedBodiesAreReadWholeOrInPieces() throws {
        let text = "POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "4;name=value\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nX-Trailer: 1\r\n\r\n" + "GET /health HTTP/1.1\r\n\r\n"
        let whole = try Self.parse(text)
        #expect(whole.map(\.path) == ["/v1/chat/completions", "/health"])
        #expect(whole.first?.body == Array("{\"a\":1}".utf8))
        var parser = HTTPRequestParser()
        var requests: [HTTPRequest] = []
        for byte in Array(text.utf8) {
            parser.append([byte])
            while let request = try parser.nextRequest() { requests.append(request) }
        }
        #expect(requests == whole)
        #expect(!parser.hasPartialRequest)
    }

    @Test func chunkedBodiesAreBoundedByTheLimits() {
        let limits = HTTPLimits(maximumHeaderBytes: 256, maximumHeaderCount: 10, maximumBodyBytes: 100)
        let head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        let sixty = "3c\r\n" + String(repeating: "x", count: 60) + "\r\n"
        #expect(throws: HTTPRequestError.bodyTooLarge(length: 120, limit: 100)) { try Self.parse(head + sixty + sixty, limits: limits) }
        #expect(throws: HTTPRequestError.headerTooLarge) {
            try Self.parse(head + "0\r\nX: " + String(repeating: "a", count: 300), limits: limits)
        }
        #expect(throws: HTTPRequestError.malformed("a chunk-size line longer than 1024 bytes")) {
            try Self.parse(head + "1;" + String(repeating: "e", count: 2000), limits: limits)
        }
    }

    /// When the client ends its side of the connection, a request partway through is refused
    /// with where it was cut; between requests there is nothing to refuse.
    @Test func aRequestCutShortSaysWhereItWasCut() throws {
        func finished(_ text: String) throws(HTTPRequestError) {
            var parser = HTTPRequestParser()
            parser.append(Array(text.utf8))
            while try parser.nextRequest() != nil {}
            try parser.finish()
        }
        try finished("")
        try finished(Self.post)
        let chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        try finished(chunked + "3\r\nabc\r\n0\r\n\r\n")
        #expect(throws: HTTPRequestError.malformed("the body ended 253 bytes before the end of a chunk")) { try finished(chunked + "100\r\nabc") }
        #expect(throws: HTTPRequestError.malformed("the body ended before its last chunk")) { try finished(chunked) }
        #expect(throws: HTTPRequestError.malformed("the request ended 3 bytes before the end of its body")) { try finished(String(Self.post.dropLast(3))) }
        #expect(throws: HTTPRequestError.malformed("the request ended within its head")) { try finished("GET / HTTP/1.1\r\nHost") }
        #expect(throws: HTTPRequestError.malformed("the request ended within its head")) { try finished(Self.post + "G") }
    }

    @Test func responsesAreFramed() {
        let head = String(decoding: HTTPResponse.json(status: 413, "{}").head(bodyLength: 2, keepAlive: false), as: UTF8.self)
        #expect(head == "HTTP/1.1 413 Content Too Large\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
        #expect(HTTPResponse.chunk(Array("hello, world!!!!!".utf8)) == Array("11\r\nhello, world!!!!!\r\n".utf8))
        #expect(HTTPResponse.chunk([]) == Array("0\r\n\r\n".utf8))
    }
}
