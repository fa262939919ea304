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

    /// Answers a request: turns of the model, with the tools it calls run between them, until it
    /// answers; `onSnapshot` is called as the answer grows. The session must have been marked
    /// busy; it is free again when this returns, with the request's entries appended to the
    /// transcript when it succeeded and the transcript as it was when it failed.
    func perform(
        _ request: Request, transcript: Transcript, cancellation: CancellationFlag, onSnapshot: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> Outcome {
        switch engine {
        case .local(let model):
            try await perform(request, on: model, transcript: transcript, cancellation: cancellation, onSnapshot: onSnapshot)
        case .provider(let provider):
            try await perform(request, on: provider, transcript: transcript, cancellation: cancellation, onSnapshot: onSnapshot)
        }
    }

    /// Answers a request on the engine of this library.
    private func perform(
        _ request: Request, on model: SystemLanguageModel, transcript: Transcript, cancellation: CancellationFlag,
        onSnapshot: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> Outcome {
        var committed: [Transcript.Entry] = []
        var statistics: GenerationStatistics?
        defer { endResponding(appending: committed, statistics: statistics, usage: statistics.map(Usage.init)) }
        let runtime = try model.runtime()
        let grammar = try grammar(for: request, allowsCalls: true, runtime: runtime)
        let format = request.includeSchemaInPrompt ? request.schema.map(Transcript.ResponseFormat.init(schema:)) : nil
        var entries: [Transcript.Entry] = [
            .prompt(Transcript.Prompt(segments: request.prompt.transcriptSegments, options: request.options, responseFormat: format))
        ]
        var rounds: [Transcript.ToolCalls] = []
        let limit = maximumToolRounds
        var total = GenerationStatistics()
        var allowsCalls = true
        while true {
            let messages = ConversationRenderer.messages(of: Transcript(entries: transcript.entries + entries))
            let generator = ResponseGenerator(
                runtime: runtime, cache: cache, prompt: try runtime.tokens(ofConversation: messages),
                grammar: allowsCalls ? grammar : try self.grammar(for: request, allowsCalls: false, runtime: runtime), isToolTurn: !tools.isEmpty,
                answerIsText: request.schema == nil, options: request.options, cancellation: cancellation)
            let output = try await onDetachedThread { try generator.run(onSnapshot: onSnapshot) }
            total.add(output.statistics)
            guard output.isToolCalls else {
                if let schema = request.schema, schema.isLenient { try Self.checkDroppedKeywords(of: output.content, against: schema) }
                let segment: Transcript.Segment
                if let schema = request.schema {
                    segment = .structure(Transcript.StructuredSegment(source: schema.name ?? "response", content: output.content))
                } else {
                    segment = .text(Transcript.TextSegment(content: output.text))
                }
                entries.append(.response(Transcript.Response(assetIDs: [], segments: [segment])))
                committed = entries
                statistics = total
                return (output.content, entries, Usage(total))
            }
            let calls = Transcript.ToolCalls(ToolTurnFormat.calls(in: output.content))
            // Calls made before with the same arguments have their outputs in the transcript
            // already: the model, looping, is asked for its answer instead.
            if calls.allSatisfy({ call in rounds.joined().contains { $0.toolName == call.toolName && $0.arguments == call.arguments } }) {
                allowsCalls = false
                continue
            }
            rounds.append(calls)
            guard rounds.count <= limit else { throw ToolRoundLimitError(limit: limit, toolCalls: rounds) }
            entries.append(.toolCalls(calls))
            entries += try await call(calls).map(Transcript.Entry.toolOutput)
            if cancellation.isCancelled { throw CancellationError() }
        }
    }

    /// Runs a turn's calls, concurrently; their outputs come in the order of the calls.
    func call(_ calls: Transcript.ToolCalls) async throws -> [Transcript.ToolOutput] {
        let tools = try calls.map { call in
            guard let tool = self.tools.first(where: { $0.name == call.toolName }) else {
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

    /// The grammar of the model's turns for a request: the schema's, or with tools, that of a
    /// turn that holds the answer or (when `allowsCalls`) tool calls; `nil` for free text.
    private func grammar(for request: Request, allowsCalls: Bool, runtime: ModelRuntime) throws -> CompiledGrammar? {
        try Self.grammar(
            answer: request.schema, tools: tools.isEmpty ? nil : allowsCalls ? tools.definitions : [], layout: request.options.jsonLayout,
            runtime: runtime)
    }

    /// The grammar of a turn: that of `answer`, or with `tools` (even none), that of a turn that
    /// holds the answer or calls of those tools (only calls, with `requiresCall`); `nil` for free
    /// text. The answer is laid out by `layout`, else as the model prefers; tool turns are
    /// compact unless `layout` says otherwise.
    static func grammar(
        answer: GenerationSchema?, tools: [Transcript.ToolDefinition]?, requiresCall: Bool = false, layout: JSONLayout? = nil,
        runtime: ModelRuntime
    ) throws -> CompiledGrammar? {
        let schema: JSONValue
        do {
            if let tools {
                schema = try ToolTurnSchema.schema(for: tools, answer: answer?.jsonSchema(), requiresCall: requiresCall)
            } else {
                guard let answer else { return nil }
                schema = try answer.jsonSchema()
            }
        } catch {
            throw GenerationError.unsupportedGuide(.init(debugDescription: "The schema cannot be written as JSON Schema: \(error)"))
        }
        do {
            let layout = layout ?? (tools == nil ? runtime.model.jsonIndentation.map(JSONLayout.indented) : nil) ?? .compact
            return try runtime.grammar(forJSONSchema: schema.jsonString, lenient: answer?.isLenient ?? false, layout: layout)
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
            try await perform(request, transcript: transcript, cancellation: cancellation) { _ in }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Answers a request as a stream of events; ending the stream early, or setting the flag,
    /// stops it.
    func stream(_ request: Request) -> (events: AsyncThrowingStream<StreamEvent, any Error>, cancellation: CancellationFlag) {
        let (events, continuation) = AsyncThrowingStream<StreamEvent, any Error>.makeStream()
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
                let outcome = try await self.perform(request, transcript: transcript, cancellation: cancellation) { content in
                    continuation.yield(.snapshot(content))
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

    /// Checks a lenient schema's whole document on the final value: what the grammar dropped is
    /// enforced here, and an output that breaks it is a decoding failure naming the keyword.
    static func checkDroppedKeywords(of content: GeneratedContent, against schema: GenerationSchema) throws {
        try check(content, against: schema, failure: "The response breaks a keyword that was only checked after generating")
    }

    /// Checks content against the whole of a schema; content that breaks it is a decoding
    /// failure that says `failure` and names the keyword and where.
    static func check(_ content: GeneratedContent, against schema: GenerationSchema, failure: String) throws {
        let document = try schema.jsonSchema().jsonString
        let validator: SchemaValidator
        do {
            validator = try SchemaValidator(jsonSchema: document)
        } catch {
            throw GenerationError.unsupportedGuide(.init(debugDescription: "The schema cannot be checked: \(error)"))
        }
        if let violation = validator.violation(in: content.jsonString) {
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

extension GenerationStatistics {
    /// Adds the figures of a later turn of the same request.
    mutating func add(_ turn: GenerationStatistics) {
        if let first = turn.firstSnapshotSeconds, firstSnapshotSeconds == nil {
            firstSnapshotSeconds = promptSeconds + responseSeconds + first
        }
        promptTokens += turn.promptTokens
        cachedPromptTokens += turn.cachedPromptTokens
        responseTokens += turn.responseTokens
        forcedTokens += turn.forcedTokens
        promptSeconds += turn.promptSeconds
        responseSeconds += turn.responseSeconds
        // The answer is the last turn's: whether it was cut short.
        isTruncated = turn.isTruncated
    }
}
