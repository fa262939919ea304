import Foundation
import HTTPWire
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPStream {
    /// Sends a request to a plain `http://` server on a socket of its own, and reads the
    /// response on a thread that sleeps until bytes arrive: no polling, no timers. The body is
    /// read by its `Content-Length`, in chunks, or until the server closes. Ending the stream
    /// shuts the connection down, which wakes the reading thread, which then closes it.
    static func startOnSocket(_ request: URLRequest) -> AsyncThrowingStream<Part, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Part, any Error>.makeStream()
        let exchange = SocketExchange(request: request)
        continuation.onTermination = { _ in exchange.cancel() }
        Thread.detachNewThread { exchange.run(into: continuation) }
        return stream
    }
}

/// One request and its response on a connection of its own (`Connection: close`).
private final class SocketExchange: Sendable {
    private let request: URLRequest
    /// The connection while it is open; cancelling shuts it down under the lock, so that it is
    /// never touched after it is closed.
    private let connection = Mutex<Connection?>(nil)
    private let isCancelled = Atomic<Bool>(false)

    init(request: URLRequest) {
        self.request = request
    }

    func cancel() {
        isCancelled.store(true, ordering: .releasing)
        connection.withLock { $0?.shutdown() }
    }

    func run(into continuation: AsyncThrowingStream<HTTPStream.Part, any Error>.Continuation) {
        do throws(OpenAICompatibleLanguageModel.ConnectionError) {
            try exchange(into: continuation)
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
        connection.withLock { open in
            open?.close()
            open = nil
        }
    }

    private func exchange(into continuation: AsyncThrowingStream<HTTPStream.Part, any Error>.Continuation) throws(OpenAICompatibleLanguageModel.ConnectionError) {
        let (host, port, bytes) = try Self.requestBytes(request)
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        let milliseconds = Int(min(timeout, 86_400) * 1000)
        let opened: Connection
        do {
            opened = try Connection.connect(host: host, port: port, waitingAtMost: milliseconds, sendTimeoutSeconds: max(1, Int(timeout)))
        } catch {
            throw .cannotConnect(error.reason)
        }
        let stillWanted = connection.withLock { current in
            current = opened
            return !isCancelled.load(ordering: .acquiring)
        }
        guard stillWanted else { return }
        guard opened.write(bytes) else {
            if isCancelled.load(ordering: .acquiring) { return }
            throw .closedEarly
        }
        var parser = HTTPResponseParser()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let result = opened.read(into: buffer, waitingAtMost: milliseconds)
            if isCancelled.load(ordering: .acquiring) { return }
            do {
                switch result {
                case .bytes(let count):
                    parser.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                    while let part = try parser.next() {
                        guard Self.deliver(part, to: continuation) else { return }
                    }
                case .closed:
                    if let part = try parser.finish() { _ = Self.deliver(part, to: continuation) }
                    return
                case .timedOut:
                    throw OpenAICompatibleLanguageModel.ConnectionError.timedOut(seconds: timeout)
                }
            } catch let error as HTTPResponseError {
                throw error == .incomplete ? .closedEarly : .malformedResponse(error.message)
            } catch let error as OpenAICompatibleLanguageModel.ConnectionError {
                throw error
            } catch {
                throw .malformedResponse("\(error)")
            }
        }
    }

    /// Hands a part to the stream; `false` once the response has ended or nobody reads it.
    private static func deliver(_ part: HTTPResponseParser.Part, to continuation: AsyncThrowingStream<HTTPStream.Part, any Error>.Continuation) -> Bool {
        let result: AsyncThrowingStream<HTTPStream.Part, any Error>.Continuation.YieldResult
        switch part {
        case .head(let head):
            var headers: [String: String] = [:]
            for field in head.headers where headers[field.name.lowercased()] == nil { headers[field.name.lowercased()] = field.value }
            result = continuation.yield(.head(status: head.status, headers: headers))
        case .body(let bytes):
            result = continuation.yield(.body(Data(bytes)))
        case .end:
            return false
        }
        if case .terminated = result { return false }
        return true
    }

    /// The host and port to connect to, and the bytes of the request: its line, `Host`, the
    /// request's header fields, `Content-Length` and `Connection: close`, then its body.
    private static func requestBytes(_ request: URLRequest) throws(OpenAICompatibleLanguageModel.ConnectionError) -> (String, Int, [UInt8]) {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            var host = components.host, !host.isEmpty
        else { throw .invalidRequest("the URL has no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = components.port ?? 80
        guard (1...65535).contains(port) else { throw .invalidRequest("the port \(port) is not between 1 and 65535") }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let hostField = (host.contains(":") ? "[\(host)]" : host) + (components.port.map { ":\($0)" } ?? "")
        let body = request.httpBody ?? Data()
        var fields: [(String, String)] = [("Host", hostField)]
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name.lowercased() {
            case "host", "content-length", "connection", "transfer-encoding": continue
            default: fields.append((name, value))
            }
        }
        fields += [("Content-Length", String(body.count)), ("Connection", "close")]
        var text = "\(request.httpMethod ?? "GET") \(target) HTTP/1.1\r\n"
        for (name, value) in fields {
            guard !name.isEmpty, name.utf8.allSatisfy(HTTPHeadSyntax.isTokenByte) else { throw .invalidRequest("the header name '\(name)' is not a token") }
            guard value.utf8.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { throw .invalidRequest("the value of '\(name)' holds a control character") }
            text += "\(name): \(value)\r\n"
        }
        text += "\r\n"
        return (host, port, Array(text.utf8) + Array(body))
    }
}
