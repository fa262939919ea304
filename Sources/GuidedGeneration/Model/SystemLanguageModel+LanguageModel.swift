import ConstrainedDecoding
import Foundation
import PartialJSON
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

        /// The grammar of a request's turn: its answer's schema, or the tool-turn format with
        /// the enabled tools, or the text grammar of its options; `nil` for free text.
        private static func grammar(of request: LanguageModelExecutorGenerationRequest, runtime: ModelRuntime) throws -> CompiledGrammar? {
            let mode = request.generationOptions.toolCallingMode?.kind
            let tools = request.enabledToolDefinitions.isEmpty ? nil : (mode == .disallowed ? [] : request.enabledToolDefinitions)
            if let textGrammar = request.generationOptions.textGrammar {
                guard request.schema == nil, tools == nil else {
                    throw LanguageModelSession.GenerationError.unsupportedGuide(
                        .init(debugDescription: "A text grammar applies to a text answer: give it without a schema and without tools."))
                }
                do {
                    return try runtime.grammar(for: textGrammar)
                } catch {
                    throw LanguageModelSession.GenerationError.unsupportedGuide(.init(debugDescription: "The grammar cannot be enforced: \(error)"))
                }
            }
            return try LanguageModelSession.grammar(
                answer: request.schema, tools: tools, requiresCall: mode == .required,
                maximumCalls: request.generationOptions.maximumToolCallsPerTurn, layout: request.generationOptions.jsonLayout, runtime: runtime)
        }

        /// Compiles the grammar of a request, with its slowest masks, without running the model,
        /// so that the request finds it compiled (a server does this before the request waits
        /// for its turn on the model).
        func prepare(_ request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel) throws {
            let runtime = try model.runtime()
            if Self.writesTaggedCalls(request) {
                _ = try Self.taggedCallGrammar(of: request, runtime: runtime)
            } else {
                _ = try Self.grammar(of: request, runtime: runtime)
            }
        }

        /// Whether the request asks for the model's own tool-call format (the model may still
        /// lack it: then the request is answered in the JSON turn).
        private static func writesTaggedCalls(_ request: LanguageModelExecutorGenerationRequest) -> Bool {
            !request.enabledToolDefinitions.isEmpty && request.generationOptions.toolCallFormat == .modelTemplate
                && request.generationOptions.textGrammar == nil
        }

        /// The grammar of a turn in the model's own tool-call format (``TaggedToolCalls``): the
        /// answer or calls of the enabled tools, only calls when a call is required, only the
        /// answer when calls are disallowed; `nil` for free text.
        private static func taggedCallGrammar(of request: LanguageModelExecutorGenerationRequest, runtime: ModelRuntime) throws -> CompiledGrammar? {
            let mode = request.generationOptions.toolCallingMode?.kind
            let tools = mode == .disallowed ? [] : request.enabledToolDefinitions
            let answer: JSONValue?
            do {
                answer = try request.schema?.jsonSchema()
            } catch {
                throw LanguageModelSession.GenerationError.unsupportedGuide(.init(debugDescription: "The schema cannot be written as JSON Schema: \(error)"))
            }
            if tools.isEmpty, answer == nil { return nil }
            do {
                let lark = try TaggedToolCalls.grammar(
                    tools: tools, answer: answer, requiresCall: mode == .required, maximumCalls: request.generationOptions.maximumToolCallsPerTurn)
                return try runtime.taggedCallGrammar(lark)
            } catch {
                throw LanguageModelSession.GenerationError.unsupportedGuide(.init(debugDescription: "The tools' schemas cannot be enforced: \(error)"))
            }
        }

        /// Answers a request in the model's own tool-call format, when its template has one;
        /// `false` when it has none (the request is then answered in the JSON turn). The text is
        /// sent when the turn is complete: the calls it holds as tool calls, else the answer.
        private func respondWithTaggedCalls(
            to request: LanguageModelExecutorGenerationRequest, runtime: ModelRuntime, channel: LanguageModelExecutorGenerationChannel
        ) async throws -> Bool {
            let messages = TaggedToolCalls.messages(of: request.transcript)
            guard let prompt = try runtime.tokens(ofConversation: messages, tools: TaggedToolCalls.templateTools(request.enabledToolDefinitions)) else {
                return false
            }
            let grammar = try Self.taggedCallGrammar(of: request, runtime: runtime)
            let cancellation = CancellationFlag()
            let cache = contexts.take(for: prompt, runtime: runtime)
            defer { contexts.giveBack(cache) }
            var generator = ResponseGenerator(
                runtime: runtime, cache: cache, prompt: prompt, grammar: grammar, isToolTurn: false,
                answerIsText: request.schema == nil, options: request.generationOptions, cancellation: cancellation)
            generator.writesTaggedCalls = true
            let running = generator
            let output = try await withTaskCancellationHandler {
                try await onDetachedThread { try running.run { _ in } }
            } onCancel: {
                cancellation.cancel()
            }
            let statistics = output.statistics
            let calls: [(name: String, arguments: String)]?
            do {
                calls = try TaggedToolCalls.calls(in: output.text)
            } catch {
                throw LanguageModelSession.GenerationError.decodingFailure(.init(debugDescription: "The model's tool call cannot be read: \(error)"))
            }
            if let calls, grammar != nil, request.generationOptions.toolCallingMode?.kind != .disallowed {
                for call in calls {
                    await channel.send(
                        .toolCalls(action: .toolCall(id: UUID().uuidString, name: call.name, action: .appendArguments(call.arguments, tokenCount: 0))))
                }
            } else if !output.text.isEmpty {
                await channel.send(.response(action: .appendText(output.text, tokenCount: statistics.responseTokens)))
            }
            await Self.sendUsage(of: statistics, into: channel)
            return true
        }

        /// Loads the model and reads the transcript into a context ahead of a request that
        /// continues it: up to the end of its last prompt when it ends with one (the beginning
        /// that prompts starting with it share), else up to the end of its instructions.
        public func prewarm(model: SystemLanguageModel, transcript: Transcript) {
            guard let runtime = try? model.runtime() else { return }
            var messages = ConversationRenderer.messages(of: transcript)
            var prefix = ""
            if case .prompt? = transcript.entries.last, let last = messages.last {
                prefix = last.content
            } else {
                messages.append(ConversationMessage(role: .user, content: ""))
            }
            guard let text = try? runtime.model.conversationText(messages) else { return }
            let end = prefix.isEmpty ? text.range(of: "\n", options: .backwards).map(\.lowerBound) : text.range(of: prefix, options: .backwards)?.upperBound
            let tokens = runtime.model.tokenize(String(text[..<(end ?? text.endIndex)]), parsingSpecialTokens: true)
            let cache = contexts.take(for: tokens, runtime: runtime)
            defer { contexts.giveBack(cache) }
            cache.lock.lock()
            defer { cache.lock.unlock() }
            _ = try? cache.load(tokens, runtime: runtime)
            cache.pause()
        }

        /// Generates the next entry of the request's transcript: the response, its text sent as
        /// it is written (the whole text so far in a turn that may call tools, where the answer
        /// is a part of the turn's JSON), or the tool calls the model made, each with its
        /// arguments; then the usage, with this engine's own figures as metadata (see
        /// ``GenerationStatistics/init(usage:)``). With tools and ``GenerationOptions/ToolCallingMode/disallowed``,
        /// the turn keeps its format and answers. Cancelling the task stops the generation at the
        /// next token.
        public func respond(
            to request: LanguageModelExecutorGenerationRequest, model: SystemLanguageModel, streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            let runtime = try model.runtime()
            if Self.writesTaggedCalls(request), try await respondWithTaggedCalls(to: request, runtime: runtime, channel: channel) { return }
            let hasTools = !request.enabledToolDefinitions.isEmpty
            let grammar = try Self.grammar(of: request, runtime: runtime)
            var entries = request.transcript.entries
            if hasTools, !entries.contains(where: { if case .instructions = $0 { true } else { false } }) {
                entries.insert(.instructions(Transcript.Instructions(segments: [], toolDefinitions: request.enabledToolDefinitions)), at: 0)
            }
            let messages = ConversationRenderer.messages(of: Transcript(entries: entries))
            let cancellation = CancellationFlag()
            let (changes, continuation) = AsyncStream<TextChange>.makeStream()
            let prompt = try runtime.tokens(ofConversation: messages)
            let cache = contexts.take(for: prompt, runtime: runtime)
            defer { contexts.giveBack(cache) }
            var generator = ResponseGenerator(
                runtime: runtime, cache: cache, prompt: prompt, grammar: grammar, isToolTurn: hasTools,
                answerIsText: request.schema == nil, options: request.generationOptions, cancellation: cancellation)
            let settled = SettledText(continuation)
            if !hasTools { generator.onSettledText = { settled.advance(to: $0, tokenCount: $1) } }
            let running = generator
            let isText = request.schema == nil
            let (output, lastSnapshot) = try await withTaskCancellationHandler {
                async let output = onDetachedThread {
                    defer { continuation.finish() }
                    // In a tool turn the answer is a part of the turn: each snapshot of it is sent whole.
                    return try running.run { content in if hasTools { continuation.yield(.replace(Self.text(of: content, isText: isText))) } }
                }
                var lastSnapshot: String?
                for await change in changes {
                    switch change {
                    case .append(let delta, let tokens): await channel.send(.response(action: .appendText(delta, tokenCount: tokens)))
                    case .replace(let text):
                        await Self.send(text, after: lastSnapshot, into: channel)
                        lastSnapshot = text
                    }
                }
                return (try await output, lastSnapshot)
            } onCancel: {
                cancellation.cancel()
            }
            let statistics = output.statistics
            if output.isToolCalls {
                for call in ToolTurnFormat.calls(in: output.content) {
                    await channel.send(
                        .toolCalls(action: .toolCall(id: call.id, name: call.toolName, action: .appendArguments(call.arguments.jsonString, tokenCount: 0))))
                }
            } else if hasTools {
                let text = Self.text(of: output.content, isText: isText)
                await Self.send(text, after: lastSnapshot, into: channel)
            } else {
                // The rest of the text; a text whose loop was cut before what was already sent
                // ends where the sent text ends.
                let text = output.text
                let sent = settled.sent
                if text.utf8.starts(with: sent.utf8), let rest = String(text.utf8.dropFirst(sent.utf8.count)), !rest.isEmpty {
                    await channel.send(.response(action: .appendText(rest, tokenCount: max(0, statistics.responseTokens - settled.tokenCount))))
                }
            }
            await Self.sendUsage(of: statistics, into: channel)
        }

        /// Sends the turn's token totals, with this engine's own figures as metadata.
        private static func sendUsage(of statistics: GenerationStatistics, into channel: LanguageModelExecutorGenerationChannel) async {
            await channel.send(
                .response(
                    action: .updateUsage(
                        input: .init(totalTokenCount: statistics.promptTokens, cachedTokenCount: statistics.cachedPromptTokens),
                        output: .init(totalTokenCount: statistics.responseTokens, reasoningTokenCount: 0), metadata: statistics.usageMetadata)))
        }

        /// The text of a tool turn's answer as far as it is written: a text answer's string, else
        /// the value's JSON, left open where the value is not complete, so that the reader of the
        /// text sees the same content, incomplete where it is.
        private static func text(of answer: GeneratedContent, isText: Bool) -> String {
            if isText, case .string(let text) = answer.kind { return text }
            return answer.writtenJSON
        }

        /// Sends the answer's text so far: the part added when it goes on from the text sent
        /// last (the reader parses on from where it stopped), else the whole text in place of it.
        private static func send(_ text: String, after last: String?, into channel: LanguageModelExecutorGenerationChannel) async {
            guard text != last else { return }
            if let last, text.utf8.starts(with: last.utf8), let added = String(text.utf8.dropFirst(last.utf8.count)) {
                await channel.send(.response(action: .appendText(added, tokenCount: 0)))
            } else {
                await channel.send(.response(action: .replaceTextSegment(text, tokenCount: 0)))
            }
        }
    }
}

/// A change of the response's text, as the executor sends it.
private enum TextChange: Sendable {
    /// Text added at the end, and the tokens written since the last change.
    case append(String, tokens: Int)
    /// The whole text so far.
    case replace(String)
}

/// The text of a response sent so far, as whole characters: each settled prefix that goes
/// beyond it sends the difference.
private final class SettledText: Sendable {
    private let state = Mutex<(byteCount: Int, text: String, tokenCount: Int)>((0, "", 0))
    private let continuation: AsyncStream<TextChange>.Continuation

    init(_ continuation: AsyncStream<TextChange>.Continuation) {
        self.continuation = continuation
    }

    var sent: String { state.withLock { $0.text } }
    /// The response tokens the text sent so far counted.
    var tokenCount: Int { state.withLock { $0.tokenCount } }

    /// Sends what `prefix` settles beyond the text sent, counting the tokens written since, of
    /// `tokenCount` in all.
    func advance(to prefix: ArraySlice<UInt8>, tokenCount: Int) {
        state.withLock { state in
            // Up to three bytes of a character still being written stay for later.
            var end = prefix.endIndex
            while end - prefix.startIndex > state.byteCount, prefix.endIndex - end < 4 {
                if let delta = String(validating: prefix[(prefix.startIndex + state.byteCount)..<end], as: UTF8.self) {
                    state.byteCount = end - prefix.startIndex
                    state.text += delta
                    continuation.yield(.append(delta, tokens: tokenCount - state.tokenCount))
                    state.tokenCount = tokenCount
                    return
                }
                end -= 1
            }
        }
    }
}
