extension LanguageModelSession {
    /// A complete response: the value, the content it was made from, and the transcript entries
    /// the request added.
    public struct Response<Content> {
        /// The response as the requested type.
        public let content: Content
        /// The generated content the value was made from.
        public let rawContent: GeneratedContent
        /// The transcript entries of the request: its prompt, tool calls and outputs, and the
        /// response.
        public let transcriptEntries: ArraySlice<Transcript.Entry>
        /// The tokens the request read and wrote, over all of its turns.
        public let usage: LanguageModelSession.Usage
    }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}
