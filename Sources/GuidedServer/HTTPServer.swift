import Foundation
import HTTPWire
import Synchronization

/// An HTTP/1.1 server on POSIX sockets: one thread accepts connections, one thread per
/// connection reads its requests (keep-alive), hands each to the handler in a task, and sends
/// what the handler writes. Every client-controlled quantity is bounded: header and body sizes
/// (431, 413), the time a request's head and the whole request may take to arrive (408; a
/// client that closes its side partway through a request gets its 400 at once), idle
/// connections, and the number of connections, in all and per client address: beyond either
/// bound a new connection takes the place of the one that has waited longest for its request,
/// and is refused (503) only when every place is held by a request being answered.
public final class HTTPServer: Sendable {
    /// How long the server waits for what a client sends.
    public struct Timeouts: Sendable {
        /// The most seconds between the first byte of a request and the end of its header fields
        /// (beyond: 408).
        public var head: Double
        /// The most seconds between the first byte of a request and its last (beyond: 408).
        public var request: Double
        /// The most seconds a connection may wait for its next request.
        public var idle: Double
        /// The most seconds a send may block on a client that does not read.
        public var send: Int

        /// Creates timeouts; the defaults are 10 s for a head, 30 s for a request, 60 s idle,
        /// 30 s per send.
        public init(head: Double = 10, request: Double = 30, idle: Double = 60, send: Int = 30) {
            self.head = min(head, request)
            self.request = request
            self.idle = idle
            self.send = send
        }
    }

    private let socket: ListeningSocket
    private let handler: any HTTPHandler
    private let limits: HTTPLimits
    private let timeouts: Timeouts
    private let connections: ConnectionTable

    /// The port the server listens on (the one the system picked when it was given 0).
    public var port: Int { socket.port }

    /// Listens on `host`:`port` and serves each connection with `handler` in the background,
    /// holding at most `maximumConnections` connections, `maximumConnectionsPerAddress` of them
    /// from one client address.
    public init(
        host: String = "127.0.0.1", port: Int, handler: any HTTPHandler, limits: HTTPLimits = HTTPLimits(), timeouts: Timeouts = Timeouts(),
        maximumConnections: Int = 256, maximumConnectionsPerAddress: Int = 64
    ) throws(ServerError) {
        do {
            socket = try ListeningSocket(host: host, port: port)
        } catch {
            throw .cannotListen(error.reason)
        }
        self.handler = handler
        self.limits = limits
        self.timeouts = timeouts
        connections = ConnectionTable(maximum: maximumConnections, maximumPerPeer: maximumConnectionsPerAddress)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Stops accepting connections (those open finish their current request).
    public func stop() {
        socket.close()
    }

    private func acceptConnections() {
        while let (descriptor, peer) = socket.acceptWithPeer() {
            let connection = Connection(descriptor: descriptor, sendTimeoutSeconds: timeouts.send)
            guard let place = connections.admit(connection, from: peer) else {
                _ = write(ServerErrorBody.response(status: 503, message: "Too many connections; try again.", headers: [("Retry-After", "1")]), on: connection, keepAlive: false)
                connection.close()
                continue
            }
            Thread.detachNewThread { [self] in serve(connection, at: place) }
        }
    }

    /// Reads and answers requests until the client closes, a request is malformed or late, the
    /// client stops reading, or a new connection takes the place of this one while it waits.
    private func serve(_ connection: Connection, at place: ConnectionTable.Place) {
        defer {
            connections.remove(place)
            connection.close()
        }
        var parser = HTTPRequestParser(limits: limits)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            var request: HTTPRequest?
            var deadline = Date().addingTimeInterval(timeouts.idle)
            var started: Date?
            var readingBody = false
            connections.setWaiting(place, true)
            while request == nil {
                do {
                    request = try parser.nextRequest()
                } catch {
                    _ = write(ServerErrorBody.response(status: error.status, message: error.message), on: connection, keepAlive: false)
                    return
                }
                guard request == nil else { break }
                // The head has its deadline from the request's first byte, the whole request its own.
                if parser.hasPartialRequest, started == nil {
                    started = Date()
                    deadline = Date().addingTimeInterval(timeouts.head)
                }
                if let started, parser.isReadingBody, !readingBody {
                    readingBody = true
                    deadline = started.addingTimeInterval(timeouts.request)
                }
                let wait = Int(deadline.timeIntervalSinceNow * 1000)
                switch wait > 0 ? connection.read(into: buffer, waitingAtMost: wait) : .timedOut {
                case .bytes(let count):
                    parser.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                case .closed:
                    // A client that ends its side partway through a request (it may still read)
                    // hears at once why the request is not answered.
                    if parser.hasPartialRequest {
                        do {
                            try parser.finish()
                        } catch {
                            _ = write(ServerErrorBody.response(status: error.status, message: error.message), on: connection, keepAlive: false)
                        }
                    }
                    return
                case .timedOut:
                    if parser.hasPartialRequest {
                        let error = HTTPRequestError.timedOut
                        _ = write(ServerErrorBody.response(status: error.status, message: error.message), on: connection, keepAlive: false)
                    }
                    return
                }
            }
            connections.setWaiting(place, false)
            guard let request, exchange(request, on: connection), request.keepsAlive else { return }
        }
    }

    /// Runs the handler on one request and sends its response; `false` when the connection
    /// cannot go on.
    private func exchange(_ request: HTTPRequest, on connection: Connection) -> Bool {
        let writer = ResponseWriter()
        let handler = self.handler
        let task = Task {
            await handler.respond(to: request, writer: writer)
            writer.end()
        }
        var isStreaming = false
        var sentHead = false
        while true {
            guard let part = writer.next(before: Date().addingTimeInterval(0.1)) else {
                // While the handler works, a client that has gone stops it.
                if connection.peerHasClosed {
                    writer.clientLeft()
                    task.cancel()
                    return false
                }
                continue
            }
            let sent: Bool
            switch part {
            case .whole(let response):
                sent = write(response, on: connection, keepAlive: request.keepsAlive)
                sentHead = true
            case .head(let head):
                guard !sentHead else { continue }
                sent = connection.write(head.head(bodyLength: nil, keepAlive: request.keepsAlive))
                sentHead = true
                isStreaming = true
            case .chunk(let bytes):
                guard isStreaming else { continue }
                sent = connection.write(HTTPResponse.chunk(bytes))
            case .end:
                if isStreaming { return connection.write(HTTPResponse.chunk([])) }
                if !sentHead {
                    return write(ServerErrorBody.response(status: 500, message: "The handler gave no response."), on: connection, keepAlive: request.keepsAlive)
                }
                return true
            }
            if !sent {
                writer.clientLeft()
                task.cancel()
                return false
            }
        }
    }

    private func write(_ response: HTTPResponse, on connection: Connection, keepAlive: Bool) -> Bool {
        connection.write(response.head(bodyLength: response.body.count, keepAlive: keepAlive) + response.body)
    }
}
