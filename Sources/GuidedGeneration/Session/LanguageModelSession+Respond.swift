// The respond and streamResponse overloads: text, a schema, or a Generable type, each with a
// Prompt, a String, or a prompt builder.

extension LanguageModelSession {
    /// Answers a prompt with text.
    @discardableResult
    nonisolated(nonsending) public func respond(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        let request = Request(prompt: prompt, schema: nil, includeSchemaInPrompt: false, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: try String(content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Answers a prompt with text.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending) public func respond(to prompt: String, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        let request = Request(prompt: Prompt(prompt), schema: nil, includeSchemaInPrompt: false, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: try String(content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Answers a prompt with text.
    @discardableResult
    nonisolated(nonsending) public func respond(options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt) async throws -> Response<String> {
        let request = Request(prompt: try prompt(), schema: nil, includeSchemaInPrompt: false, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: try String(content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as text, growing with each token.
    public func streamResponse(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<String> {
        ResponseStream<String>(stream(Request(prompt: prompt, schema: nil, includeSchemaInPrompt: false, options: options)))
    }

    /// Streams the answer to a prompt as text, growing with each token.
    @_disfavoredOverload
    public func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<String> {
        ResponseStream<String>(stream(Request(prompt: Prompt(prompt), schema: nil, includeSchemaInPrompt: false, options: options)))
    }

    /// Streams the answer to a prompt as text, growing with each token.
    public func streamResponse(options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt) rethrows -> sending ResponseStream<String> {
        ResponseStream<String>(stream(Request(prompt: try prompt(), schema: nil, includeSchemaInPrompt: false, options: options)))
    }

    /// Answers a prompt with content of a schema; the content always matches it.
    @discardableResult
    nonisolated(nonsending) public func respond(to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) async throws -> Response<GeneratedContent> {
        let request = Request(prompt: prompt, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: content, rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Answers a prompt with content of a schema; the content always matches it.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending) public func respond(to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) async throws -> Response<GeneratedContent> {
        let request = Request(prompt: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: content, rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Answers a prompt with content of a schema; the content always matches it.
    @discardableResult
    nonisolated(nonsending) public func respond(schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt) async throws -> Response<GeneratedContent> {
        let request = Request(prompt: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: content, rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as content of a schema, each snapshot the content so far.
    public func streamResponse(to prompt: Prompt, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<GeneratedContent> {
        ResponseStream<GeneratedContent>(stream(Request(prompt: prompt, schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)))
    }

    /// Streams the answer to a prompt as content of a schema, each snapshot the content so far.
    @_disfavoredOverload
    public func streamResponse(to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<GeneratedContent> {
        ResponseStream<GeneratedContent>(stream(Request(prompt: Prompt(prompt), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)))
    }

    /// Streams the answer to a prompt as content of a schema, each snapshot the content so far.
    public func streamResponse(schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt) rethrows -> sending ResponseStream<GeneratedContent> {
        ResponseStream<GeneratedContent>(stream(Request(prompt: try prompt(), schema: schema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)))
    }

    /// Answers a prompt with a value of a `Generable` type; the value always matches the type's schema, properties in declaration order.
    @discardableResult
    nonisolated(nonsending) public func respond<Content: Generable>(to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) async throws -> Response<Content> {
        let request = Request(prompt: prompt, schema: Content.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: try Self.value(Content.self, from: content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Answers a prompt with a value of a `Generable` type; the value always matches the type's schema, properties in declaration order.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending) public func respond<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) async throws -> Response<Content> {
        let request = Request(prompt: Prompt(prompt), schema: Content.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: try Self.value(Content.self, from: content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Answers a prompt with a value of a `Generable` type; the value always matches the type's schema, properties in declaration order.
    @discardableResult
    nonisolated(nonsending) public func respond<Content: Generable>(generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt) async throws -> Response<Content> {
        let request = Request(prompt: try prompt(), schema: Content.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
        let (content, entries, usage) = try await respond(request)
        return Response(content: try Self.value(Content.self, from: content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as snapshots of a `Generable` type's partially generated form, properties filled in declaration order.
    public func streamResponse<Content: Generable>(to prompt: Prompt, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<Content> {
        ResponseStream<Content>(stream(Request(prompt: prompt, schema: Content.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)))
    }

    /// Streams the answer to a prompt as snapshots of a `Generable` type's partially generated form, properties filled in declaration order.
    @_disfavoredOverload
    public func streamResponse<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) -> sending ResponseStream<Content> {
        ResponseStream<Content>(stream(Request(prompt: Prompt(prompt), schema: Content.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)))
    }

    /// Streams the answer to a prompt as snapshots of a `Generable` type's partially generated form, properties filled in declaration order.
    public func streamResponse<Content: Generable>(generating type: Content.Type = Content.self, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions(), @PromptBuilder prompt: () throws -> Prompt) rethrows -> sending ResponseStream<Content> {
        ResponseStream<Content>(stream(Request(prompt: try prompt(), schema: Content.generationSchema, includeSchemaInPrompt: includeSchemaInPrompt, options: options)))
    }
}
