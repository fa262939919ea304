import Foundation

extension LanguageModelSession {
    /// A tool the model called failed; the session's transcript is as it was before the request.
    public struct ToolCallError: Swift.Error, LocalizedError {
        /// The tool that failed.
        public var tool: any Tool
        /// What it threw.
        public var underlyingError: any Swift.Error

        /// An error of `tool`, which threw `underlyingError`.
        public init(tool: any Tool, underlyingError: any Swift.Error) {
            self.tool = tool
            self.underlyingError = underlyingError
        }

        public var errorDescription: String? {
            "The tool \"\(tool.name)\" failed: \(underlyingError.localizedDescription)"
        }
    }
}
