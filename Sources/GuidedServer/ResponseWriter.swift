import Foundation

/// Where a handler puts its response, from whatever task it runs on, for the connection's thread
/// to send: a whole response, or a head and then chunks. Tells the handler when the client has
/// gone, so that it stops working for nobody.
public final class ResponseWriter: @unchecked Sendable {
    enum Part {
        case whole(HTTPResponse)
        case head(HTTPResponse)
        case chunk([UInt8])
        case end
    }

    private let condition = NSCondition()
    private var parts: [Part] = []
    private var isGone = false
    private var isEnded = false

    init() {}

    /// Whether the client has gone (disconnected, or stopped reading).
    public var isClientGone: Bool { condition.withLock { isGone } }

    /// Sends a whole response; nothing more may follow.
    public func send(_ response: HTTPResponse) {
        put(.whole(response))
        end()
    }

    /// Starts a streamed response with its status and header fields.
    public func startStream(_ head: HTTPResponse) {
        put(.head(head))
    }

    /// Sends a chunk of a streamed body; `false` once the client is gone.
    @discardableResult
    public func send(chunk bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return !isClientGone }
        return put(.chunk(bytes))
    }

    /// Ends the response (the last chunk of a streamed one).
    public func end() {
        condition.withLock {
            guard !isEnded else { return }
            isEnded = true
            parts.append(.end)
            condition.signal()
        }
    }

    @discardableResult
    private func put(_ part: Part) -> Bool {
        condition.withLock {
            guard !isGone, !isEnded else { return !isGone }
            parts.append(part)
            condition.signal()
            return true
        }
    }

    /// The next part, waiting at most until `deadline`; `nil` when none came by then.
    func next(before deadline: Date) -> Part? {
        condition.withLock {
            while parts.isEmpty {
                guard condition.wait(until: deadline) else { return nil }
            }
            return parts.removeFirst()
        }
    }

    /// Marks the client as gone: what the handler sends from now on is dropped.
    func clientLeft() {
        condition.withLock {
            isGone = true
            parts.removeAll()
        }
    }
}
