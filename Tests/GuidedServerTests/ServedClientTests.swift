import Foundation
import GuidedServer
import HTTPWire
import Synchronization
import Testing

@testable import GuidedGeneration

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `OpenAICompatibleLanguageModel` on a plain `http://` server, through its own HTTP/1.1 client
/// on sockets: streamed (chunked) and whole (Content-Length) answers from this package's server
/// started in-process, and, from a socket that sends what it is told, a server that closes
/// mid-stream, goes silent, or answers with bytes that are not HTTP, each a typed error.
@Suite struct ServedClientTests {
    static let pieces = ["Hel", "lo, ", "wor", "ld"]

    static func event(_ text: String) -> String {
        #"data: {"choices":[{"delta":{"content":"\#(text)"}}]}"# + "\n\n"
    }

    static var events: String { pieces.map(event).joined() + "data: [DONE]\n\n" }

    /// Answers chat completions with the pieces, streamed in chunks or whole, and keeps the
    /// request it got.
    final class ScriptedHandler: HTTPHandler {
        let streams: Bool
        let received = Mutex<HTTPRequest?>(nil)

        init(streams: Bool) {
            self.streams = streams
        }

        func respond(to request: HTTPRequest, writer: ResponseWriter) async {
            received.withLock { $0 = request }
            let head = HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")])
            guard streams else {
                writer.send(HTTPResponse(status: 200, headers: head.headers, body: Array(ServedClientTests.events.utf8)))
                return
            }
            writer.startStream(head)
            for piece in ServedClientTests.pieces {
                writer.send(chunk: Array(ServedClientTests.event(piece).utf8))
                try? await Task.sleep(for: .milliseconds(20))
            }
            writer.send(chunk: Array("data: [DONE]\n\n".utf8))
        }
    }

    static func model(port: Int, timeout: TimeInterval = 30) -> OpenAICompatibleLanguageModel {
        OpenAICompatibleLanguageModel(baseURL: URL(string: "http://127.0.0.1:\(port)/v1")!, model: "m", apiKey: "secret", timeout: timeout)
    }

    @Test(arguments: [true, false]) func answersStreamInChunksOrComeWhole(streams: Bool) async throws {
        let handler = ScriptedHandler(streams: streams)
        let server = try HTTPServer(port: 0, handler: handler)
        defer { server.stop() }
        let session = LanguageModelSession(model: Self.model(port: server.port))
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "Greet the world.") { snapshots.append(snapshot.content) }
        #expect(snapshots.last == "Hello, world")
        if streams { #expect(snapshots.count >= 2, "the pieces arrive as they are sent") }
        let request = try #require(handler.received.withLock { $0 })
        #expect(request.method == "POST" && request.target == "/v1/chat/completions")
        #expect(request.header("authorization") == "Bearer secret" && request.header("host") == "127.0.0.1:\(server.port)")
        #expect(String(decoding: request.body, as: UTF8.self).contains("Greet the world."))
        // The connection carries one request, then closes.
        #expect(request.header("connection") == "close")
    }

    /// A server on a socket that reads a request's head and answers with `response`, then
    /// closes (or, without `closes`, keeps the connection open for a while).
    final class RawServer: Sendable {
        let socket: ListeningSocket

        init(response: [UInt8], closes: Bool = true) throws {
            socket = try ListeningSocket(host: "127.0.0.1", port: 0)
            let socket = self.socket
            Thread.detachNewThread {
                guard let descriptor = socket.accept() else { return }
                let connection = Connection(descriptor: descriptor, sendTimeoutSeconds: 5)
                defer { connection.close() }
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 8)
                defer { buffer.deallocate() }
                var received: [UInt8] = []
                while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
                    guard case .bytes(let count) = connection.read(into: buffer, waitingAtMost: 5000) else { return }
                    received += buffer[..<count]
                }
                _ = connection.write(response)
                if !closes { _ = connection.read(into: buffer, waitingAtMost: 5000) }
            }
        }

        var port: Int { socket.port }

        func stop() { socket.close() }
    }

    static func failure(of response: String, closes: Bool = true, timeout: TimeInterval = 30) async throws -> OpenAICompatibleLanguageModel.ConnectionError? {
        let server = try RawServer(response: Array(response.utf8), closes: closes)
        defer { server.stop() }
        let session = LanguageModelSession(model: Self.model(port: server.port, timeout: timeout))
        do {
            _ = try await session.respond(to: "Greet the world.")
            return nil
        } catch let error as OpenAICompatibleLanguageModel.ConnectionError {
            return error
        }
    }

    static let chunkedHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"

    @Test func aServerThatClosesMidStreamIsClosedEarly() async throws {
        let chunk = Self.event("Hel")
        let cut = Self.chunkedHead + String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
        #expect(try await Self.failure(of: cut) == .closedEarly)
        #expect(try await Self.failure(of: "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n" + Self.event("Hel")) == .closedEarly)
        #expect(try await Self.failure(of: "HTTP/1.1 200 OK\r\nContent-Le") == .closedEarly)
    }

    @Test func hostileResponsesAreMalformed() async throws {
        let responses = [
            "HTTP/1.1 OK\r\n\r\n",
            "SSH-2.0-OpenSSH_9.6\r\n\r\n",
            "HTTP/1.1 200 OK\nContent-Length: 0\n\n",
            Self.chunkedHead + "zz\r\n",
            Self.chunkedHead + "3\r\nabcdef\r\n",
            Self.chunkedHead + "ffffffffffffffffff\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
        ]
        for response in responses {
            let error = try await Self.failure(of: response)
            guard case .malformedResponse(let reason)? = error else {
                Issue.record("\(response.prefix(60).debugDescription) gave \(String(describing: error))")
                continue
            }
            #expect(!reason.isEmpty)
        }
        let large = try await Self.failure(of: "HTTP/1.1 200 OK\r\nX-Pad: " + String(repeating: "a", count: 70_000) + "\r\n\r\n")
        #expect(large?.description.contains("exceed 65536 bytes") == true)
    }

    @Test func aSilentServerTimesOutAndAMissingOneCannotBeReached() async throws {
        #expect(try await Self.failure(of: "", closes: false, timeout: 1) == .timedOut(seconds: 1))
        let closed = try ListeningSocket(host: "127.0.0.1", port: 0)
        let port = closed.port
        closed.close()
        let session = LanguageModelSession(model: Self.model(port: port))
        await #expect {
            _ = try await session.respond(to: "Hi")
        } throws: { error in
            guard case .cannotConnect(let reason)? = error as? OpenAICompatibleLanguageModel.ConnectionError else { return false }
            return reason.contains("127.0.0.1:\(port)")
        }
    }

    /// Streams until the client goes, and notes that it went.
    final class EndlessHandler: HTTPHandler {
        let sawClientLeave = Atomic<Bool>(false)

        func respond(to request: HTTPRequest, writer: ResponseWriter) async {
            writer.startStream(HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")]))
            for _ in 0..<1000 {
                guard writer.send(chunk: Array(ServedClientTests.event("la").utf8)) else { break }
                if writer.isClientGone { break }
                try? await Task.sleep(for: .milliseconds(10))
            }
            if writer.isClientGone { sawClientLeave.store(true, ordering: .relaxed) }
        }
    }

    @Test func endingTheStreamClosesTheConnection() async throws {
        let handler = EndlessHandler()
        let server = try HTTPServer(port: 0, handler: handler)
        defer { server.stop() }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/v1/chat/completions")!)
        request.httpMethod = "POST"
        request.httpBody = Data("{}".utf8)
        var bodies = 0
        for try await part in HTTPStream.start(request) {
            if case .body = part { bodies += 1 }
            if bodies == 3 { break }
        }
        for _ in 0..<100 where !handler.sawClientLeave.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(50)) }
        let left = handler.sawClientLeave.load(ordering: .relaxed)
        #expect(left, "the server sees the client go once the stream ends")
    }
}
