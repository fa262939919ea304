// The respond and streamResponse overloads of FoundationModels 27, with context options and
// metadata: text, a schema, or a Generable type, each with a Prompt, a String, or a prompt
// builder.

extension LanguageModelSession {
    /// A request with context options and metadata; `includeSchemaInPrompt` is the options' own
    /// when they set it.
    private func request(
        _ prompt: Prompt, schema: GenerationSchema?, options: GenerationOptions, contextOptions: ContextOptions,
        metadata: [String: any ConvertibleToGeneratedContent]
    ) -> Request {
        var request = Request(prompt: prompt, schema: schema, includeSchemaInPrompt: contextOptions.includeSchemaInPrompt ?? (schema != nil), options: options)
        request.contextOptions = contextOptions
        request.metadata = metadata.mapValues(\.generatedContent)
        return request
    }

    /// Answers a prompt with text, with context options and metadata for the model.
    @discardableResult
    nonisolated(nonsending) public func respond(to prompt: Prompt, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(), metadata: [String: any ConvertibleToGeneratedContent] = [:]) async throws -> Response<String> {
        let (content, entries, usage) = try await respond(request(prompt, schema: nil, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: try String(content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as text, with context options and metadata for the model.
    public func streamResponse(to prompt: Prompt, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(), metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> sending ResponseStream<String> {
        ResponseStream<String>(stream(request(prompt, schema: nil, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

    /// Answers a prompt with text, with context options and metadata for the model.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending) public func respond(to prompt: String, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(), metadata: [String: any ConvertibleToGeneratedContent] = [:]) async throws -> Response<String> {
        let (content, entries, usage) = try await respond(request(Prompt(prompt), schema: nil, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: try String(content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as text, with context options and metadata for the model.
    @_disfavoredOverload
    public func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(), metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> sending ResponseStream<String> {
        ResponseStream<String>(stream(request(Prompt(prompt), schema: nil, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

    /// Answers a prompt with text, with context options and metadata for the model.
    @discardableResult
    nonisolated(nonsending) public func respond(options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(), metadata: [String: any ConvertibleToGeneratedContent] = [:], @PromptBuilder prompt: () throws -> Prompt) async throws -> Response<String> {
        let (content, entries, usage) = try await respond(request(try prompt(), schema: nil, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: try String(content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as text, with context options and metadata for the model.
    public func streamResponse(options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(), metadata: [String: any ConvertibleToGeneratedContent] = [:], @PromptBuilder prompt: () throws -> Prompt) rethrows -> sending ResponseStream<String> {
        ResponseStream<String>(stream(request(try prompt(), schema: nil, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

    /// Answers a prompt with content of a schema, with context options and metadata for the model.
    @discardableResult
    nonisolated(nonsending) public func respond(to prompt: Prompt, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:]) async throws -> Response<GeneratedContent> {
        let (content, entries, usage) = try await respond(request(prompt, schema: schema, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: content, rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as content of a schema, with context options and metadata for the model.
    public func streamResponse(to prompt: Prompt, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> sending ResponseStream<GeneratedContent> {
        ResponseStream<GeneratedContent>(stream(request(prompt, schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

    /// Answers a prompt with content of a schema, with context options and metadata for the model.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending) public func respond(to prompt: String, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:]) async throws -> Response<GeneratedContent> {
        let (content, entries, usage) = try await respond(request(Prompt(prompt), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: content, rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as content of a schema, with context options and metadata for the model.
    @_disfavoredOverload
    public func streamResponse(to prompt: String, schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> sending ResponseStream<GeneratedContent> {
        ResponseStream<GeneratedContent>(stream(request(Prompt(prompt), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

    /// Answers a prompt with content of a schema, with context options and metadata for the model.
    @discardableResult
    nonisolated(nonsending) public func respond(schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:], @PromptBuilder prompt: () throws -> Prompt) async throws -> Response<GeneratedContent> {
        let (content, entries, usage) = try await respond(request(try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: content, rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as content of a schema, with context options and metadata for the model.
    public func streamResponse(schema: GenerationSchema, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:], @PromptBuilder prompt: () throws -> Prompt) rethrows -> sending ResponseStream<GeneratedContent> {
        ResponseStream<GeneratedContent>(stream(request(try prompt(), schema: schema, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

    /// Answers a prompt with a value of a `Generable` type, with context options and metadata for the model.
    @discardableResult
    nonisolated(nonsending) public func respond<Content: Generable>(to prompt: Prompt, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:]) async throws -> Response<Content> {
        let (content, entries, usage) = try await respond(request(prompt, schema: Content.generationSchema, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: try Self.value(Content.self, from: content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as snapshots of a `Generable` type, with context options and metadata for the model.
    public func streamResponse<Content: Generable>(to prompt: Prompt, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> sending ResponseStream<Content> {
        ResponseStream<Content>(stream(request(prompt, schema: Content.generationSchema, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

    /// Answers a prompt with a value of a `Generable` type, with context options and metadata for the model.
    @discardableResult
    @_disfavoredOverload
    nonisolated(nonsending) public func respond<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:]) async throws -> Response<Content> {
        let (content, entries, usage) = try await respond(request(Prompt(prompt), schema: Content.generationSchema, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: try Self.value(Content.self, from: content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as snapshots of a `Generable` type, with context options and metadata for the model.
    @_disfavoredOverload
    public func streamResponse<Content: Generable>(to prompt: String, generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> sending ResponseStream<Content> {
        ResponseStream<Content>(stream(request(Prompt(prompt), schema: Content.generationSchema, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

    /// Answers a prompt with a value of a `Generable` type, with context options and metadata for the model.
    @discardableResult
    nonisolated(nonsending) public func respond<Content: Generable>(generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:], @PromptBuilder prompt: () throws -> Prompt) async throws -> Response<Content> {
        let (content, entries, usage) = try await respond(request(try prompt(), schema: Content.generationSchema, options: options, contextOptions: contextOptions, metadata: metadata))
        return Response(content: try Self.value(Content.self, from: content), rawContent: content, transcriptEntries: entries[...], usage: usage)
    }

    /// Streams the answer to a prompt as snapshots of a `Generable` type, with context options and metadata for the model.
    public func streamResponse<Content: Generable>(generating type: Content.Type = Content.self, options: GenerationOptions = GenerationOptions(), contextOptions: ContextOptions = ContextOptions(includeSchemaInPrompt: true), metadata: [String: any ConvertibleToGeneratedContent] = [:], @PromptBuilder prompt: () throws -> Prompt) rethrows -> sending ResponseStream<Content> {
        ResponseStream<Content>(stream(request(try prompt(), schema: Content.generationSchema, options: options, contextOptions: contextOptions, metadata: metadata)))
    }

}
