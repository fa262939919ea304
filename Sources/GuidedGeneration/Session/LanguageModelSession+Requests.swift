import Foundation
import ConstrainedDecoding

extension LanguageModelSession {
    /// What a request asks for.
    struct Request: Sendable {
        let prompt: Prompt
        /// The schema of the response; `nil` for text.
        let schema: GenerationSchema?
        let includeSchemaInPrompt: Bool
        let options: GenerationOptions
    }

    /// Answers a request on the calling thread, calling `onSnapshot` as the content grows.
    /// The session must have been marked busy; it is free again when this returns.
    func run(
        _ request: Request, transcript: Transcript, cancellation: CancellationFlag, onSnapshot: (GeneratedContent) -> Void
    ) throws -> (content: GeneratedContent, entries: [Transcript.Entry]) {
        var entries: [Transcript.Entry] = []
        var statistics: GenerationStatistics?
        defer { endResponding(appending: entries, statistics: statistics) }
        let runtime = try model.runtime()
        let grammar = try request.schema.map { try Self.grammar(of: $0, runtime: runtime) }
        let format = request.includeSchemaInPrompt ? request.schema.map(Transcript.ResponseFormat.init(schema:)) : nil
        let prompt = Transcript.Prompt(segments: request.prompt.transcriptSegments, options: request.options, responseFormat: format)
        var messages = ConversationRenderer.messages(of: transcript)
        if let message = ConversationRenderer.message(for: .prompt(prompt)) { messages.append(message) }
        let generator = ResponseGenerator(
            runtime: runtime, cache: cache, prompt: runtime.tokens(ofConversation: messages), grammar: grammar,
            options: request.options, cancellation: cancellation)
        let output = try generator.run(onSnapshot: onSnapshot)
        statistics = output.statistics
        let segment: Transcript.Segment
        if let schema = request.schema {
            segment = .structure(Transcript.StructuredSegment(source: schema.name ?? "response", content: output.content))
        } else {
            segment = .text(Transcript.TextSegment(content: output.text))
        }
        entries = [.prompt(prompt), .response(Transcript.Response(assetIDs: [], segments: [segment]))]
        return (output.content, entries)
    }

    /// The grammar of a schema for the model.
    private static func grammar(of schema: GenerationSchema, runtime: ModelRuntime) throws -> CompiledGrammar {
        let text: String
        do {
            text = try schema.jsonSchemaString()
        } catch {
            throw GenerationError.unsupportedGuide(.init(debugDescription: "The schema cannot be written as JSON Schema: \(error)"))
        }
        do {
            return try runtime.grammar(forJSONSchema: text)
        } catch {
            throw GenerationError.unsupportedGuide(.init(debugDescription: "The schema cannot be enforced: \(error)"))
        }
    }

    /// Answers a request away from the caller's thread; cancelling the calling task stops it.
    func respond(_ request: Request) async throws -> (content: GeneratedContent, entries: [Transcript.Entry]) {
        let transcript = try beginResponding()
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result { try self.run(request, transcript: transcript, cancellation: cancellation) { _ in } })
                }
            }
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
        continuation.onTermination = { _ in cancellation.cancel() }
        Thread.detachNewThread {
            do {
                let (_, entries) = try self.run(request, transcript: transcript, cancellation: cancellation) { content in
                    continuation.yield(.snapshot(content))
                }
                continuation.yield(.finished(entries))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return (events, cancellation)
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
