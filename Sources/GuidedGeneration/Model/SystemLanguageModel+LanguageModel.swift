import Foundation
import Synchronization

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

        /// One context per request running: a server's requests run together.
        private let contexts = ContextPool()

        public init(configuration: Configuration) {}

        /// Loads the model.
        public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
            _ = try? model.runtime()
        }

        /// Generates the next entry of the request's transcript: the response, its text sent as
        /// it is written (the part no later step can take back: in a value, up to the element or
        /// string being written), or the tool calls the model made, each with its arguments.
        /// Cancelling the task stops the generation at the next token.
        public func respond(
            to request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel, streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            let runtime = try model.runtime()
            let hasTools = !request.enabledToolDefinitions.isEmpty
            let grammar = try LanguageModelSession.grammar(
                answer: request.schema, tools: hasTools ? request.enabledToolDefinitions : nil,
                requiresCall: request.generationOptions.toolCallingMode?.kind == .required, layout: request.generationOptions.jsonLayout,
                runtime: runtime)
            var entries = request.transcript.entries
            if hasTools, !entries.contains(where: { if case .instructions = $0 { true } else { false } }) {
                entries.insert(.instructions(Transcript.Instructions(segments: [], toolDefinitions: request.enabledToolDefinitions)), at: 0)
            }
            let messages = ConversationRenderer.messages(of: Transcript(entries: entries))
            let cancellation = CancellationFlag()
            let (deltas, continuation) = AsyncStream<String>.makeStream()
            let prompt = try runtime.tokens(ofConversation: messages)
            let cache = contexts.take(for: prompt)
            defer { contexts.giveBack(cache) }
            var generator = ResponseGenerator(
                runtime: runtime, cache: cache, prompt: prompt, grammar: grammar, isToolTurn: hasTools,
                answerIsText: request.schema == nil, options: request.generationOptions, cancellation: cancellation)
            let settled = SettledText(continuation)
            generator.onSettledText = { settled.advance(to: $0) }
            let running = generator
            let output = try await withTaskCancellationHandler {
                async let output = onDetachedThread {
                    defer { continuation.finish() }
                    return try running.run { _ in }
                }
                for await delta in deltas { await channel.send(.response(action: .appendText(delta, tokenCount: 0))) }
                return try await output
            } onCancel: {
                cancellation.cancel()
            }
            let statistics = output.statistics
            if output.isToolCalls {
                for call in ToolTurnFormat.calls(in: output.content) {
                    await channel.send(
                        .toolCalls(action: .toolCall(id: call.id, name: call.toolName, action: .appendArguments(call.arguments.jsonString, tokenCount: 0))))
                }
            } else {
                // The rest of the text; a text whose loop was cut before what was already sent
                // ends where the sent text ends.
                let text = hasTools && request.schema != nil ? output.content.jsonString : output.text
                let sent = settled.sent
                if text.utf8.starts(with: sent.utf8), let rest = String(text.utf8.dropFirst(sent.utf8.count)), !rest.isEmpty {
                    await channel.send(.response(action: .appendText(rest, tokenCount: 0)))
                }
            }
            await channel.send(
                .response(
                    action: .updateUsage(
                        input: .init(totalTokenCount: statistics.promptTokens, cachedTokenCount: statistics.cachedPromptTokens),
                        output: .init(totalTokenCount: statistics.responseTokens, reasoningTokenCount: 0))))
        }
    }
}

/// The text of a response sent so far, as whole characters: each settled prefix that goes
/// beyond it sends the difference.
private final class SettledText: Sendable {
    private let state = Mutex<(byteCount: Int, text: String)>((0, ""))
    private let continuation: AsyncStream<String>.Continuation

    init(_ continuation: AsyncStream<String>.Continuation) {
        self.continuation = continuation
    }

    var sent: String { state.withLock { $0.text } }

    func advance(to prefix: ArraySlice<UInt8>) {
        state.withLock { state in
            // Up to three bytes of a character still being written stay for later.
            var end = prefix.endIndex
            while end - prefix.startIndex > state.byteCount, prefix.endIndex - end < 4 {
                if let delta = String(validating: prefix[(prefix.startIndex + state.byteCount)..<end], as: UTF8.self) {
                    state.byteCount = end - prefix.startIndex
                    state.text += delta
                    continuation.yield(delta)
                    return
                }
                end -= 1
            }
        }
    }
}
