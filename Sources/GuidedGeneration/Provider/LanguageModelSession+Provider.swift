import Foundation

extension LanguageModelSession {
    /// Answers a request on a ``LanguageModel`` through its executor: each turn's events are read
    /// from the channel as they come (each change of the response reported as a snapshot), the
    /// tools the model calls are run between turns, and the final content is checked against
    /// the whole schema, since a served model's own enforcement may fall short.
    func perform(
        _ request: Request, on provider: ProviderModel, transcript: Transcript, cancellation: CancellationFlag,
        onSnapshot: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> Outcome {
        var committed: [Transcript.Entry] = []
        var statistics = GenerationStatistics()
        var usage = Usage.zero
        defer { endResponding(appending: committed, statistics: statistics, usage: usage) }
        let mode = request.options.toolCallingMode?.kind ?? .allowed
        let enabledTools = mode == .disallowed ? [] : tools.definitions
        if request.schema != nil, !provider.capabilities.contains(.guidedGeneration) {
            throw LanguageModelError.unsupportedCapability(
                .init(capability: .guidedGeneration, debugDescription: "The model does not generate content of a schema; ask for text instead."))
        }
        if !enabledTools.isEmpty, !provider.capabilities.contains(.toolCalling) {
            throw LanguageModelError.unsupportedCapability(
                .init(capability: .toolCalling, debugDescription: "The model does not call tools; make the session without them, or disallow tool calling."))
        }
        let format = request.includeSchemaInPrompt ? request.schema.map(Transcript.ResponseFormat.init(schema:)) : nil
        var entries: [Transcript.Entry] = [
            .prompt(Transcript.Prompt(segments: request.prompt.transcriptSegments, options: request.options, responseFormat: format))
        ]
        var rounds: [Transcript.ToolCalls] = []
        let limit = maximumToolRounds
        while true {
            let turnRequest = LanguageModelExecutorGenerationRequest(
                id: UUID(), transcript: Transcript(entries: transcript.entries + entries), enabledTools: enabledTools, schema: request.schema,
                generationOptions: request.options,
                contextOptions: ContextOptions(includeSchemaInPrompt: request.includeSchemaInPrompt, reasoningLevel: request.contextOptions.reasoningLevel),
                metadata: request.metadata)
            var turn: ChannelTurn
            do {
                turn = try await provider.turn(turnRequest, json: request.schema != nil, cancellation: cancellation) { turn, content in
                    if let content, turn.calls.isEmpty { onSnapshot(content) }
                }
            } catch let error as LanguageModelError {
                // The errors the session's own API names are thrown as those.
                throw error.generationError ?? error
            }
            usage = usage.adding(turn.usage)
            statistics.promptTokens = usage.input.totalTokenCount
            statistics.cachedPromptTokens = usage.input.cachedTokenCount
            statistics.responseTokens = usage.output.totalTokenCount
            if let reasoning = turn.reasoning { entries.append(.reasoning(reasoning)) }
            guard !turn.calls.isEmpty else {
                let content = try turn.finishedContent()
                let segment: Transcript.Segment
                if let schema = request.schema {
                    try Self.check(content, against: schema, failure: "The model's response does not match the schema")
                    segment = .structure(Transcript.StructuredSegment(source: schema.name ?? "response", content: content))
                } else {
                    segment = .text(Transcript.TextSegment(content: turn.responseText))
                }
                entries.append(.response(Transcript.Response(assetIDs: [], segments: [segment])))
                committed = entries
                return (content, entries, usage)
            }
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
            rounds.append(calls)
            guard rounds.count <= limit else { throw ToolRoundLimitError(limit: limit, toolCalls: rounds) }
            entries.append(.toolCalls(calls))
            entries += try await call(calls).map(Transcript.Entry.toolOutput)
            if cancellation.isCancelled { throw CancellationError() }
        }
    }
}
