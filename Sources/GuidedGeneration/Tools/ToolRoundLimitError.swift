import Foundation

extension LanguageModelSession {
    /// The model kept calling tools without answering: it had called them in as many turns as
    /// ``LanguageModelSession/maximumToolRounds`` allows. The transcript is as it was before the
    /// request.
    public struct ToolRoundLimitError: Swift.Error, LocalizedError {
        /// The number of turns with tool calls that the session allowed.
        public var limit: Int
        /// The calls the model made, turn by turn.
        public var toolCalls: [Transcript.ToolCalls]

        public var errorDescription: String? {
            let names = toolCalls.flatMap { $0.map(\.toolName) }
            return "The model called tools in \(limit) turns without answering (\(names.joined(separator: ", "))); "
                + "the session allows \(limit) such turns per request."
        }
    }
}
