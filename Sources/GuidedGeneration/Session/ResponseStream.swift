extension LanguageModelSession {
    /// What a generation reports while it runs: each new state of the content, then the
    /// transcript entries the request added and its token totals.
    enum StreamEvent: Sendable {
        /// The content so far, and the request's token totals so far.
        case snapshot(GeneratedContent, Usage)
        case finished([Transcript.Entry], Usage)
    }

    /// A response as it is generated: an asynchronous sequence of snapshots, each the whole
    /// content so far (not a delta) as the type's `PartiallyGenerated` form, the last one complete.
    ///
    /// Generation starts when the stream is made; leaving the loop early, or cancelling the task
    /// that iterates, stops it.
    public struct ResponseStream<Content: Generable>: AsyncSequence {
        public typealias Element = Snapshot
        public typealias Failure = any Swift.Error

        /// The content so far.
        public struct Snapshot {
            /// The content so far, in its partially generated form.
            public var content: Content.PartiallyGenerated
            /// The generated content so far.
            public var rawContent: GeneratedContent
            /// The request's token totals so far (every turn of it, tool calls included), as the
            /// model last reported them.
            public var usage: Usage
        }

        let events: AsyncThrowingStream<StreamEvent, any Swift.Error>
        /// Stops the generation behind the stream.
        let cancellation: CancellationFlag?

        init(events: AsyncThrowingStream<StreamEvent, any Swift.Error>, cancellation: CancellationFlag? = nil) {
            self.events = events
            self.cancellation = cancellation
        }

        /// The stream of a running generation.
        init(_ generation: (events: AsyncThrowingStream<StreamEvent, any Swift.Error>, cancellation: CancellationFlag)) {
            self.init(events: generation.events, cancellation: generation.cancellation)
        }

        /// A stream that gives one complete content at once.
        init(content: GeneratedContent, transcriptEntries: [Transcript.Entry]) {
            let (events, continuation) = AsyncThrowingStream<StreamEvent, any Swift.Error>.makeStream()
            continuation.yield(.snapshot(content, .zero))
            continuation.yield(.finished(transcriptEntries, .zero))
            continuation.finish()
            self.init(events: events)
        }

        /// A stream that fails at once.
        init(error: any Swift.Error) {
            let (events, continuation) = AsyncThrowingStream<StreamEvent, any Swift.Error>.makeStream()
            continuation.finish(throwing: error)
            self.init(events: events)
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(events: events.makeAsyncIterator(), reader: StreamReader(cancellation: cancellation))
        }

        /// Reads the snapshots of a response.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var events: AsyncThrowingStream<StreamEvent, any Swift.Error>.AsyncIterator
            /// Stops the generation when the iterator is dropped (a loop left early).
            let reader: StreamReader

            public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Snapshot? {
                while let event = try await events.next(isolation: actor) {
                    switch event {
                    case .snapshot(let content, let usage):
                        // Content that is still partial may not convert yet (a number not
                        // finished, an enumeration case half written); it is skipped.
                        guard let partial = try? Content.PartiallyGenerated(content) else {
                            if content.isComplete { _ = try Content.PartiallyGenerated(content) }
                            continue
                        }
                        return Snapshot(content: partial, rawContent: content, usage: usage)
                    case .finished:
                        continue
                    }
                }
                return nil
            }

            public mutating func next() async throws -> Snapshot? {
                try await next(isolation: nil)
            }
        }

        /// Stops a stream's generation when the one reading it goes away.
        final class StreamReader: Sendable {
            let cancellation: CancellationFlag?

            init(cancellation: CancellationFlag?) {
                self.cancellation = cancellation
            }

            deinit {
                cancellation?.cancel()
            }
        }

        /// Waits for the whole response.
        public nonisolated(nonsending) func collect() async throws -> sending Response<Content> {
            var iterator = events.makeAsyncIterator()
            var last: GeneratedContent?
            var entries: [Transcript.Entry] = []
            var usage = Usage.zero
            while let event = try await iterator.next() {
                switch event {
                case .snapshot(let content, _): last = content
                case .finished(let finished, let total): (entries, usage) = (finished, total)
                }
            }
            guard let last else {
                throw GenerationError.decodingFailure(.init(debugDescription: "The response stream ended without content."))
            }
            return Response(content: try Content(last), rawContent: last, transcriptEntries: entries[...], usage: usage)
        }
    }
}
