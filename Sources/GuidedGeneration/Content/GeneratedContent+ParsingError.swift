extension GeneratedContent {
    /// Content that could not be read as what was asked: the raw text the model wrote and why.
    ///
    /// Code that reads a model's output itself throws it: a tool reading its arguments (the
    /// session reports it as a ``LanguageModelSession/ToolCallError``), a custom
    /// ``LanguageModel`` reading a served model's reply.
    ///
    /// ```swift
    /// import GuidedGeneration
    ///
    /// func skillName(in arguments: GeneratedContent, among names: [String]) throws -> String {
    ///     let name = try arguments.value(String.self, forProperty: "skill")
    ///     guard names.contains(name) else {
    ///         throw GeneratedContent.ParsingError(
    ///             rawContent: arguments.jsonString, debugDescription: "No skill is named '\(name)'.")
    ///     }
    ///     return name
    /// }
    /// ```
    public struct ParsingError: Error, CustomDebugStringConvertible, Sendable {
        /// The text that could not be read.
        public let rawContent: String
        /// What was wrong with it.
        public let debugDescription: String

        /// An error for `rawContent`, saying what was wrong with it.
        public init(rawContent: String, debugDescription: String) {
            self.rawContent = rawContent
            self.debugDescription = debugDescription
        }
    }
}
