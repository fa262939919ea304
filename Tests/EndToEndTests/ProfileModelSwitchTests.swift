import Foundation
import GuidedGeneration
import ModelFetching
import Synchronization
import Testing

/// A dynamic profile that moves one conversation from the embedded model to a served one
/// (llama.cpp's `llama-server` on the same GGUF) and back: the history goes with it.
@Suite(.serialized) struct ProfileModelSwitchTests {
    /// Where the app wants its answers computed.
    final class Placement: Sendable {
        let isServed = Mutex(false)
    }

    struct Assistant: LanguageModelSession.DynamicProfile {
        let placement: Placement
        let local: SystemLanguageModel
        let served: OpenAICompatibleLanguageModel

        var body: some DynamicProfile {
            if placement.isServed.withLock({ $0 }) {
                Profile { Instructions("You are a helpful assistant. Answer in one short sentence.") }.model(served)
            } else {
                Profile { Instructions("You are a helpful assistant. Answer in one short sentence.") }.model(local)
            }
        }
    }

    @Test func theConversationMovesBetweenTheEmbeddedAndAServedModel() async throws {
        let local = try requireTinyModel()
        let server = try #require(
            try await LlamaServerProcess.start(model: ModelStore.path(of: .smolLM2)),
            "llama-server or SmolLM2 is missing: run scripts/build-llama-server.sh and `guided fetch-model smollm2-135m-instruct`")
        defer { server.stop() }
        let placement = Placement()
        let served = OpenAICompatibleLanguageModel(baseURL: server.base, model: "smollm2", apiKey: nil)
        let session = LanguageModelSession(profile: Assistant(placement: placement, local: local, served: served))
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 32)
        let first = try await session.respond(to: "My cat is called Whiskers.", options: options)
        placement.isServed.withLock { $0 = true }
        let second = try await session.respond(to: "What is my cat called?", options: options)
        placement.isServed.withLock { $0 = false }
        let third = try await session.respond(to: "Thank you.", options: options)
        #expect(session.transcript.count == 7, "\(session.transcript)")
        // The served model read the first turn too: its prompt is longer than the first
        // request's prompt and answer together; and back on the embedded model, so is the third's.
        let firstTurn = first.usage.input.totalTokenCount + first.usage.output.totalTokenCount
        #expect(second.usage.input.totalTokenCount > firstTurn, "first \(first.usage), second \(second.usage)")
        #expect(third.usage.input.totalTokenCount > firstTurn + second.usage.output.totalTokenCount, "third \(third.usage)")
        #expect(!second.content.isEmpty && !third.content.isEmpty)
    }
}
