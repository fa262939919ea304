// Text under a grammar (beyond Apple's API): a regular expression, a list of choices, a GBNF or a
// Lark grammar, enforced token by token by the local model.

extension LanguageModelSession {
    /// Answers a prompt with text that follows `grammar` (``GenerationOptions/textGrammar``).
    ///
    /// ```swift
    /// let session = LanguageModelSession()
    /// let time = try await session.respond(to: "When does the shop open?", grammar: .regex("[0-2][0-9]:[0-5][0-9]"))
    /// ```
    ///
    /// - Throws: ``LanguageModelSession/GenerationError`` as the other overloads do; a served
    ///   model refuses the request, since it cannot enforce the grammar.
    @discardableResult
    nonisolated(nonsending) public func respond(to prompt: Prompt, grammar: TextGrammar, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        try await respond(to: prompt, options: Self.options(options, grammar: grammar))
    }

    /// Answers a prompt with text that follows `grammar` (``GenerationOptions/textGrammar``).
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending) public func respond(to prompt: String, grammar: TextGrammar, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        try await respond(to: Prompt(prompt), options: Self.options(options, grammar: grammar))
    }

    /// Streams the answer to a prompt as text that follows `grammar`, growing with each token.
    public func streamResponse(to prompt: Prompt, grammar: TextGrammar, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<String> {
        streamResponse(to: prompt, options: Self.options(options, grammar: grammar))
    }

    /// Streams the answer to a prompt as text that follows `grammar`, growing with each token.
    @_disfavoredOverload
    public func streamResponse(to prompt: String, grammar: TextGrammar, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<String> {
        streamResponse(to: Prompt(prompt), options: Self.options(options, grammar: grammar))
    }

    private static func options(_ options: GenerationOptions, grammar: TextGrammar) -> GenerationOptions {
        var options = options
        options.textGrammar = grammar
        return options
    }
}
