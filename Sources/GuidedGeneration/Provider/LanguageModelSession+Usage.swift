extension LanguageModelSession {
    /// Token totals of a response, or of a session: what the model read (and how much of it was
    /// cached) and what it wrote (and how much of that was reasoning).
    public struct Usage: Sendable, Equatable {
        /// What the model read.
        public struct Input: Sendable, Equatable {
            /// The tokens of the transcript the model read.
            public var totalTokenCount: Int
            /// How many of those were served from a cache (at most ``totalTokenCount``).
            public var cachedTokenCount: Int

            public init(totalTokenCount: Int, cachedTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// What the model wrote.
        public struct Output: Sendable, Equatable {
            /// The tokens the model wrote.
            public var totalTokenCount: Int
            /// How many of those were reasoning (at most ``totalTokenCount``).
            public var reasoningTokenCount: Int

            public init(totalTokenCount: Int, reasoningTokenCount: Int) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }

        /// What the model read.
        public var input: Input
        /// What the model wrote.
        public var output: Output
        /// Every token of the request, read or written: `input.totalTokenCount +
        /// output.totalTokenCount`.
        public var totalTokenCount: Int { input.totalTokenCount + output.totalTokenCount }
        /// What the model reported beside the counts.
        public var metadata: [String: GeneratedContent]

        public init(input: Input, output: Output, metadata: [String: any ConvertibleToGeneratedContent] = [:]) {
            self.input = input
            self.output = output
            self.metadata = metadata.mapValues(\.generatedContent)
        }

        /// No tokens.
        static let zero = Usage(input: Input(totalTokenCount: 0, cachedTokenCount: 0), output: Output(totalTokenCount: 0, reasoningTokenCount: 0))

        /// The totals of this and `other` together (the metadata of `other` wins).
        func adding(_ other: Usage) -> Usage {
            var sum = Usage(
                input: Input(
                    totalTokenCount: input.totalTokenCount + other.input.totalTokenCount,
                    cachedTokenCount: input.cachedTokenCount + other.input.cachedTokenCount),
                output: Output(
                    totalTokenCount: output.totalTokenCount + other.output.totalTokenCount,
                    reasoningTokenCount: output.reasoningTokenCount + other.output.reasoningTokenCount))
            sum.metadata = metadata.merging(other.metadata) { $1 }
            return sum
        }
    }
}
