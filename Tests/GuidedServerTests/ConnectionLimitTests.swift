import Foundation
import GuidedServer
import Synchronization
import Testing

/// The server's connection places: clients that open connections and never finish a request
/// cannot lock others out, and only requests being answered hold their places.
@Suite struct ConnectionLimitTests {
    /// Answers `/health` at once, and `/slow` once the test releases it, counting the slow
    /// requests it holds.
    final class Handler: HTTPHandler {
        let held = Atomic<Int>(0)
        let released = Atomic<Bool>(false)

        func respond(to request: HTTPRequest, writer: ResponseWriter) async {
            if request.path == "/slow" {
                held.add(1, ordering: .relaxed)
                while !released.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(20)) }
            }
            writer.send(.json(#"{"status":"ok"}"#))
        }
    }

    static let health = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

    static func status(_ response: String) -> String {
        String(decoding: response.utf8.prefix { $0 != 13 }, as: UTF8.self)
    }

    @Test func unfinishedHeadsGiveTheirPlacesToNewConnections() async throws {
        let server = try HTTPServer(port: 0, handler: Handler(), maximumConnections: 4, maximumConnectionsPerAddress: 4)
        defer { server.stop() }
        // A client holds every place with heads it never finishes, and keeps them open.
        var held: [RawClient] = []
        defer { held.forEach { $0.close() } }
        for _ in 0..<12 {
            let client = try RawClient(port: server.port)
            client.send("GET /health HTTP/1.1\r\nHost: x\r\n")
            held.append(client)
        }
        // Another client is answered all the same, each time.
        for _ in 0..<5 {
            #expect(Self.status(try await RawClient.exchange(port: server.port, Self.health)) == "HTTP/1.1 200 OK")
        }
    }

    @Test func placesOfRequestsBeingAnsweredAreKept() async throws {
        let handler = Handler()
        let server = try HTTPServer(port: 0, handler: handler, maximumConnections: 2, maximumConnectionsPerAddress: 2)
        defer { server.stop() }
        let slow = "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let port = server.port
        async let first = RawClient.exchange(port: port, slow)
        async let second = RawClient.exchange(port: port, slow)
        // Both requests are being answered (the handler holds them), however slowly the machine runs.
        for _ in 0..<3000 where handler.held.load(ordering: .relaxed) < 2 { try await Task.sleep(for: .milliseconds(20)) }
        try #require(handler.held.load(ordering: .relaxed) == 2)
        // Both places are held by requests being answered: the new connection is refused.
        #expect(Self.status(try await RawClient.exchange(port: port, Self.health)) == "HTTP/1.1 503 Service Unavailable")
        handler.released.store(true, ordering: .relaxed)
        #expect(Self.status(try await first) == "HTTP/1.1 200 OK")
        #expect(Self.status(try await second) == "HTTP/1.1 200 OK")
    }

    @Test func aHeadHasItsOwnDeadlineAndABodyTheRequests() async throws {
        // Wide margins: the head's deadline passes long before the request's, on a machine as
        // busy as a parallel test run makes it.
        let server = try HTTPServer(port: 0, handler: Handler(), timeouts: HTTPServer.Timeouts(head: 1, request: 120))
        defer { server.stop() }
        let unfinished = try RawClient(port: server.port)
        defer { unfinished.close() }
        unfinished.send("GET /health HTTP/1.1\r\nHost: x\r\n")
        #expect(Self.status(try await unfinished.receive(seconds: 100)) == "HTTP/1.1 408 Request Timeout")
        // A body that comes after the head's deadline, within the request's.
        let slowBody = try RawClient(port: server.port)
        defer { slowBody.close() }
        slowBody.send("POST /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{")
        try await Task.sleep(for: .seconds(3))
        slowBody.send("}")
        #expect(Self.status(try await slowBody.receive(seconds: 100)) == "HTTP/1.1 200 OK")
    }
}
