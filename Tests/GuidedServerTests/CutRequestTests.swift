import Foundation
import GuidedServer
import Testing

/// A client that ends its side of the connection partway through a request gets a 400 that says
/// where the request was cut, at once: the server does not wait for the request's deadline
/// (30 s here), nor close without a word.
@Suite struct CutRequestTests {
    /// The status line and body of the answer to `text` sent alone, the client then ending its
    /// side of the connection.
    static func answer(to text: String, port: Int) async throws -> (status: String, body: String) {
        let client = try RawClient(port: port)
        defer { client.close() }
        client.send(text)
        client.endSending()
        let response = try await client.receive(seconds: 100)
        let body = response.range(of: "\r\n\r\n").map { String(response[$0.upperBound...]) } ?? ""
        return (String(decoding: response.utf8.prefix { $0 != 13 }, as: UTF8.self), body)
    }

    @Test func aRequestCutShortIsRefusedAtOnce() async throws {
        // The default timeouts: a late request would hear 408 after 30 s.
        let server = try HTTPServer(port: 0, handler: ConnectionLimitTests.Handler())
        defer { server.stop() }
        let head = "POST /health HTTP/1.1\r\nHost: x\r\n"
        let cases = [
            // The declared chunk (256 bytes) never arrives.
            (head + "Transfer-Encoding: chunked\r\n\r\n100\r\n{\"messages\"", "the body ended 245 bytes before the end of a chunk"),
            (head + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", "the body ended before its last chunk"),
            (head + "Transfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: 1\r\n", "the body ended within its trailer fields"),
            (head + "Content-Length: 10\r\n\r\n{", "the request ended 9 bytes before the end of its body"),
            (head + "Content-Le", "the request ended within its head"),
        ]
        for (text, reason) in cases {
            let (status, body) = try await Self.answer(to: text, port: server.port)
            #expect(status == "HTTP/1.1 400 Bad Request", "\(text.debugDescription)")
            #expect(body.contains(reason), "\(text.debugDescription): \(body)")
        }
        // A client that ends its side between requests is not answered.
        let (status, _) = try await Self.answer(to: "", port: server.port)
        #expect(status.isEmpty)
    }
}
