import ConstrainedDecoding
import Foundation
import PartialJSON

extension LanguageModelSession {
    /// What a request asks for.
    struct Request: Sendable {
        let prompt: Prompt
        /// The schema of the response; `nil` for text.
        let schema: GenerationSchema?
        let includeSchemaInPrompt: Bool
        let options: GenerationOptions
        /// How the model is prompted, for a ``LanguageModel`` that reads it.
        var contextOptions = ContextOptions()
        /// What the app attached to the request, for a ``LanguageModel`` that reads it.
        var metadata: [String: GeneratedContent] = [:]
    }

    /// Answers a request: turns of the model through its executor, each turn's events read from
    /// the channel as they come (each change of the response reported to `onSnapshot`, with the
    /// request's token totals so far), the tools the model calls run between turns, until it
    /// answers; the final content is checked against the whole schema (a lenient schema's
    /// dropped keywords, a served model's own enforcement that may fall short).
    ///
    /// A profile is worked out again before each turn (its model, instructions, tools and
    /// settings), and its hooks run as the request goes; the session's values are bound for
    /// them and for the tools. The session must have been marked busy, `saved` being its
    /// transcript then; the request's entries go into the transcript as they come, and it is free
    /// again when this returns, the transcript back to `saved` when the request failed (unless
    /// the policy preserves what it had added).
    func perform(
        _ request: Request, transcript saved: Transcript, cancellation: CancellationFlag,
        onSnapshot: @escaping @Sendable (GeneratedContent, Usage) -> Void
    ) async throws -> Outcome {
        try await SessionPropertyValues.$current.withValue(properties) {
            try await performBound(request, saved: saved, cancellation: cancellation, onSnapshot: onSnapshot)
        }
    }

    private func performBound(
        _ request: Request, saved: Transcript, cancellation: CancellationFlag, onSnapshot: @escaping @Sendable (GeneratedContent, Usage) -> Void
    ) async throws -> Outcome {
        var statistics = GenerationStatistics()
        var usage = Usage.zero
        var succeeded = false
        var policy: TranscriptErrorHandlingPolicy?
        defer { endResponding(failed: succeeded ? nil : saved, policy: policy, statistics: statistics, usage: usage) }
        var setup = try await turnSetup()
        policy = setup.profile?.transcriptErrorHandlingPolicy
        let promptSegments = request.prompt.transcriptSegments
        let format = request.includeSchemaInPrompt ? request.schema.map(Transcript.ResponseFormat.init(schema:)) : nil
        // The request's entries, each also added to the transcript as it comes.
        var entries: [Transcript.Entry] = []
        func record(_ new: [Transcript.Entry]) throws {
            try append(new)
            entries += new
        }
        try record([.prompt(Transcript.Prompt(segments: promptSegments, options: request.options, responseFormat: format))])
        try await setup.run(\.onPrompt)
        var answersNow = false
        var rounds: [Transcript.ToolCalls] = []
        let limit = maximumToolRounds
        while true {
            if !rounds.isEmpty || answersNow {
                setup = try await turnSetup()
                policy = setup.profile?.transcriptErrorHandlingPolicy
            }
            var options = setup.options(over: request.options)
            // `required` asks for a call before the answer, as OpenAI's `tool_choice` does: once
            // the first turn has called, the model may answer.
            if !rounds.isEmpty, options.toolCallingMode?.kind == .required { options.toolCallingMode = .allowed }
            if answersNow { options.toolCallingMode = .disallowed }
            let sent = setup.sent(transcript)
            var enabledTools = options.toolCallingMode?.kind == .disallowed ? [] : setup.tools.definitions
            if let mode = options.toolCallingMode, mode.kind == .required, let name = mode.toolName {
                enabledTools = enabledTools.filter { $0.name == name }
                guard !enabledTools.isEmpty else {
                    throw GenerationError.unsupportedGuide(.init(debugDescription: "The tool calling mode requires the tool '\(name)', which the session does not have."))
                }
            }
            try Self.checkCapabilities(of: setup.model, schema: request.schema, tools: enabledTools, transcript: sent)
            try await Self.checkDataTypes(of: setup.model, transcript: sent)
            let reasoningLevel = request.contextOptions.reasoningLevel ?? setup.profile?.reasoningLevel
            let turnRequest = LanguageModelExecutorGenerationRequest(
                id: UUID(), transcript: sent, enabledTools: enabledTools, schema: request.schema, generationOptions: options,
                contextOptions: ContextOptions(includeSchemaInPrompt: request.includeSchemaInPrompt, reasoningLevel: reasoningLevel),
                metadata: request.metadata)
            var turn: ChannelTurn
            let earlierTurns = usage
            do {
                turn = try await setup.model.turn(turnRequest, json: request.schema != nil, cancellation: cancellation) { turn, content in
                    if let content, turn.calls.isEmpty { onSnapshot(content, earlierTurns.adding(turn.usage)) }
                }
            } catch let error as LanguageModelError {
                // The errors the session's own API names are thrown as those.
                throw error.generationError ?? error
            }
            usage = usage.adding(turn.usage)
            statistics.add(GenerationStatistics(usage: turn.usage))
            if let reasoning = turn.reasoning {
                try record([.reasoning(reasoning)])
                try await setup.run(\.onReasoning)
            }
            if !turn.dataEntries.isEmpty { try record(turn.dataEntries.map(Transcript.Entry.data)) }
            guard !turn.calls.isEmpty else {
                let content = try turn.finishedContent()
                let segment: Transcript.Segment
                if let schema = request.schema {
                    try Self.check(
                        content, against: schema,
                        failure: schema.isLenient ? "The response breaks a keyword that was only checked after generating" : "The model's response does not match the schema")
                    segment = .structure(Transcript.StructuredSegment(source: schema.name, content: content))
                } else {
                    segment = .text(Transcript.TextSegment(content: turn.responseText))
                }
                try record([.response(Transcript.Response(assetIDs: [], segments: [segment] + turn.otherSegments))])
                try await setup.run(\.onResponse)
                try checkTranscriptUnchanged()
                succeeded = true
                return (content, entries, usage)
            }
            let tools = setup.tools
            let calls = Transcript.ToolCalls(
                try turn.calls.map { call in
                    guard tools.contains(where: { $0.name == call.name }) else {
                        throw GenerationError.decodingFailure(.init(debugDescription: "The model called \"\(call.name)\", which is not a tool of the session."))
                    }
                    do {
                        return Transcript.ToolCall(id: call.id, toolName: call.name, arguments: try GeneratedContent(json: call.arguments.isEmpty ? "{}" : call.arguments))
                    } catch {
                        throw GenerationError.decodingFailure(
                            .init(debugDescription: "The arguments of the model's call of \"\(call.name)\" are not JSON: \(error)"))
                    }
                })
            // Calls made before with the same arguments have their outputs in the transcript
            // already: the model, looping, is asked for its answer instead.
            if calls.allSatisfy({ call in rounds.joined().contains { $0.toolName == call.toolName && $0.arguments == call.arguments } }) {
                answersNow = true
                continue
            }
            rounds.append(calls)
            guard rounds.count <= limit else { throw ToolRoundLimitError(limit: limit, toolCalls: rounds) }
            try record([.toolCalls(calls)])
            if let hooks = setup.profile?.hooks.onToolCall {
                for call in calls { for hook in hooks { try await hook(call) } }
            }
            try record(try await call(calls, tools: tools).map(Transcript.Entry.toolOutput))
            try await setup.run(\.onToolOutput)
            if cancellation.isCancelled { throw CancellationError() }
        }
    }

    /// Refuses, before the model is asked, what `model` cannot do: a schema without guided
    /// generation, tools without tool calling, images without vision.
    static func checkCapabilities(of model: ProviderModel, schema: GenerationSchema?, tools: [Transcript.ToolDefinition], transcript: Transcript) throws {
        if schema != nil, !model.capabilities.contains(.guidedGeneration) {
            throw LanguageModelError.unsupportedCapability(
                .init(capability: .guidedGeneration, debugDescription: "The model does not generate content of a schema; ask for text instead."))
        }
        if !tools.isEmpty, !model.capabilities.contains(.toolCalling) {
            throw LanguageModelError.unsupportedCapability(
                .init(capability: .toolCalling, debugDescription: "The model does not call tools; make the session without them, or disallow tool calling."))
        }
        let showsImages = transcript.contains { !$0.segments.images.isEmpty }
        if showsImages, !model.capabilities.contains(.vision) {
            throw LanguageModelError.unsupportedCapability(
                .init(capability: .vision, debugDescription: "The model does not read images; leave the attachment out, or use a model that does."))
        }
    }

    /// Refuses, before the model is asked, the data entries and data attachments of `transcript`
    /// whose content types `model` does not accept, naming the entries that hold them.
    static func checkDataTypes(of model: ProviderModel, transcript: Transcript) async throws {
        var verdicts: [UTType: Bool] = [:]
        var refused: [Transcript.Entry] = []
        var refusedTypes: [String] = []
        for entry in transcript {
            let kinds: [(type: UTType, isEntry: Bool)] =
                if case .data(let data) = entry { [(data.contentType, true)] } else { entry.segments.dataAttachments.map { ($0.contentType, false) } }
            for (type, isEntry) in kinds {
                let accepted: Bool
                if isEntry {
                    accepted = try await model.supportsDataEntryType(type)
                } else if let known = verdicts[type] {
                    accepted = known
                } else {
                    accepted = try await model.supportsDataAttachmentType(type)
                    verdicts[type] = accepted
                }
                if !accepted {
                    if refused.last?.id != entry.id { refused.append(entry) }
                    if !refusedTypes.contains(type.identifier) { refusedTypes.append(type.identifier) }
                }
            }
        }
        guard refused.isEmpty else {
            throw LanguageModelError.unsupportedTranscriptContent(
                .init(
                    unsupportedContent: refused,
                    debugDescription: "The model does not accept data of type \(refusedTypes.joined(separator: ", ")); leave it out, or use a model that accepts it."))
        }
    }

    /// Runs a turn's calls of `tools`, concurrently; their outputs come in the order of the calls.
    func call(_ calls: Transcript.ToolCalls, tools available: [any Tool]) async throws -> [Transcript.ToolOutput] {
        let tools = try calls.map { call in
            guard let tool = available.first(where: { $0.name == call.toolName }) else {
                throw GenerationError.decodingFailure(.init(debugDescription: "The model called \"\(call.toolName)\", which is not a tool of the session."))
            }
            return tool
        }
        return try await withThrowingTaskGroup(of: (Int, Transcript.ToolOutput).self) { group in
            for (index, (call, tool)) in zip(calls, tools).enumerated() {
                group.addTask { (index, try await Self.invoke(tool, call)) }
            }
            var outputs: [Transcript.ToolOutput?] = Array(repeating: nil, count: calls.count)
            for try await (index, output) in group { outputs[index] = output }
            return outputs.compactMap { $0 }
        }
    }

    /// Runs one call; what the tool throws becomes a ``ToolCallError``.
    private static func invoke<T: Tool>(_ tool: T, _ call: Transcript.ToolCall) async throws -> Transcript.ToolOutput {
        do {
            let output = try await tool.call(arguments: try T.Arguments(call.arguments))
            return Transcript.ToolOutput(id: call.id, toolName: call.toolName, segments: output.promptRepresentation.transcriptSegments)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw ToolCallError(tool: tool, underlyingError: error)
        }
    }

    /// The grammar of a turn: that of `answer`, or with `tools` (even none), that of a turn that
    /// holds the answer or calls of those tools (only calls, with `requiresCall`); `nil` for free
    /// text. The answer is laid out by `layout`, else as the model prefers; tool turns are
    /// compact unless `layout` says otherwise. A turn holds at most `maximumCalls` calls.
    static func grammar(
        answer: GenerationSchema?, tools: [Transcript.ToolDefinition]?, requiresCall: Bool = false, maximumCalls: Int? = nil,
        layout: JSONLayout? = nil, runtime: ModelRuntime
    ) throws -> CompiledGrammar? {
        let schema: JSONValue
        do {
            if let tools {
                schema = try ToolTurnSchema.schema(for: tools, answer: answer?.jsonSchema(), requiresCall: requiresCall, maximumCalls: maximumCalls)
            } else {
                guard let answer else { return nil }
                schema = try answer.jsonSchema()
            }
        } catch {
            throw GenerationError.unsupportedGuide(.init(debugDescription: "The schema cannot be written as JSON Schema: \(error)"))
        }
        do {
            let layout = layout ?? (tools == nil ? runtime.model.jsonIndentation.map(JSONLayout.indented) : nil) ?? .compact
            return try runtime.grammar(
                forJSONSchema: schema, lenient: answer?.isLenient ?? false, layout: layout, compiled: tools == nil ? answer?.compiledDocument : nil)
        } catch {
            throw GenerationError.unsupportedGuide(.init(debugDescription: "The schema cannot be enforced: \(error)"))
        }
    }

    /// What a request gave: the final content, the transcript entries it added, and the tokens
    /// it read and wrote.
    typealias Outcome = (content: GeneratedContent, entries: [Transcript.Entry], usage: Usage)

    /// Answers a request; cancelling the calling task stops it.
    func respond(_ request: Request) async throws -> Outcome {
        let transcript = try beginResponding()
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await perform(request, transcript: transcript, cancellation: cancellation) { _, _ in }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Answers a request as a stream of events; ending the stream early, or setting the flag,
    /// stops it.
    func stream(_ request: Request) -> (events: AsyncThrowingStream<StreamEvent, any Swift.Error>, cancellation: CancellationFlag) {
        let (events, continuation) = AsyncThrowingStream<StreamEvent, any Swift.Error>.makeStream()
        let cancellation = CancellationFlag()
        let transcript: Transcript
        do {
            transcript = try beginResponding()
        } catch {
            continuation.finish(throwing: error)
            return (events, cancellation)
        }
        let task = Task {
            do {
                let outcome = try await self.perform(request, transcript: transcript, cancellation: cancellation) { content, usage in
                    continuation.yield(.snapshot(content, usage))
                }
                continuation.yield(.finished(outcome.entries, outcome.usage))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            cancellation.cancel()
            task.cancel()
        }
        return (events, cancellation)
    }

    /// Checks content against the whole of a schema; content that breaks it is a decoding
    /// failure that says `failure` and names the keyword and where. The validator is built once
    /// per schema value, in `cache`.
    static func check(
        _ content: GeneratedContent, against schema: GenerationSchema, failure: String, cache: SchemaCache = .shared
    ) throws {
        let document = try schema.jsonSchema()
        let validator: SchemaValidator
        do {
            validator = try cache.validator(for: document)
        } catch {
            throw GenerationError.unsupportedGuide(.init(debugDescription: "The schema cannot be checked: \(error)"))
        }
        if let violation = validator.violation(in: content.jsonValue) {
            throw GenerationError.decodingFailure(.init(debugDescription: "\(failure): \(violation)"))
        }
    }

    /// Makes the requested type from generated content.
    static func value<Content: ConvertibleFromGeneratedContent>(_ type: Content.Type, from content: GeneratedContent) throws -> Content {
        do {
            return try Content(content)
        } catch {
            throw GenerationError.decodingFailure(.init(debugDescription: "The response cannot become a \(Content.self): \(error)"))
        }
    }
}
