/// Where a ``LanguageModelExecutor`` sends the parts of an entry as it generates them, and where
/// the session reads them from: text deltas, tool calls, reasoning, usage and metadata.
public struct LanguageModelExecutorGenerationChannel: AsyncSequence, Sendable {
    public typealias Element = Event
    public typealias Failure = any Error

    private final class Storage: Sendable {
        let stream: AsyncThrowingStream<Event, any Error>
        let continuation: AsyncThrowingStream<Event, any Error>.Continuation

        init() {
            (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        }
    }

    private let storage = Storage()

    /// An open channel.
    public init() {}

    /// Sends an event to the session.
    nonisolated(nonsending) public func send(_ event: Event) async {
        storage.continuation.yield(event)
    }

    /// Ends the channel: its reader gets the events sent so far, then `error` or the end.
    package func finish(throwing error: (any Error)? = nil) {
        storage.continuation.finish(throwing: error)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: storage.stream.makeAsyncIterator())
    }

    /// Reads the events of a channel.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Event, any Error>.AsyncIterator

        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Event? {
            try await base.next(isolation: actor)
        }

        public mutating func next() async throws -> Event? {
            try await base.next()
        }
    }
}
