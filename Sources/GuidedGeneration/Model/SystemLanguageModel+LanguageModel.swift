import Foundation

extension SystemLanguageModel: LanguageModel {
    /// The embedded engine calls tools and enforces schemas while it generates.
    public var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([.toolCalling, .guidedGeneration]) }

    /// One executor per model.
    public var executorConfiguration: Executor.Configuration { Executor.Configuration(model: ObjectIdentifier(self)) }

    /// Runs requests on the embedded engine: the grammar of the schema (or of a turn that may
    /// call the enabled tools) over the model's own context, which it keeps from one request to
    /// the next.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = SystemLanguageModel

        /// Which model the executor runs.
        public struct Configuration: Hashable, Sendable {
            let model: ObjectIdentifier
        }

        private let cache = ContextCache()

        public init(configuration: Configuration) {}

        /// Loads the model.
        public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
            _ = try? model.runtime()
        }

        /// Generates the next entry of the request's transcript: the response, sent as its text
        /// once complete, or the tool calls the model made, each with its arguments.
        public func respond(
            to request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel, streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            let runtime = try model.runtime()
            let hasTools = !request.enabledToolDefinitions.isEmpty
            let grammar = try LanguageModelSession.grammar(
                answer: request.schema, tools: hasTools ? request.enabledToolDefinitions : nil, runtime: runtime)
            var entries = request.transcript.entries
            if hasTools, !entries.contains(where: { if case .instructions = $0 { true } else { false } }) {
                entries.insert(.instructions(Transcript.Instructions(segments: [], toolDefinitions: request.enabledToolDefinitions)), at: 0)
            }
            let messages = ConversationRenderer.messages(of: Transcript(entries: entries))
            let generator = ResponseGenerator(
                runtime: runtime, cache: cache, prompt: runtime.tokens(ofConversation: messages), grammar: grammar, isToolTurn: hasTools,
                answerIsText: request.schema == nil, options: request.generationOptions, cancellation: CancellationFlag())
            let output = try await onDetachedThread { try generator.run { _ in } }
            let statistics = output.statistics
            if output.isToolCalls {
                for call in ToolTurnFormat.calls(in: output.content) {
                    await channel.send(
                        .toolCalls(action: .toolCall(id: call.id, name: call.toolName, action: .appendArguments(call.arguments.jsonString, tokenCount: 0))))
                }
            } else {
                let text = request.schema == nil ? output.text : output.content.jsonString
                await channel.send(.response(action: .appendText(text, tokenCount: statistics.responseTokens)))
            }
            await channel.send(
                .response(
                    action: .updateUsage(
                        input: .init(totalTokenCount: statistics.promptTokens, cachedTokenCount: statistics.cachedPromptTokens),
                        output: .init(totalTokenCount: statistics.responseTokens, reasoningTokenCount: 0))))
        }
    }
}
