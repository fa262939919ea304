import Foundation
import GuidedGeneration
import LlamaInference
import ModelFetching
import Testing

/// Gemma 3 270M (architecture `gemma3`, K-quants, a 262,144-token SentencePiece vocabulary, no chat
/// template in the file), which `.ci/run` fetches before the tests run, through the whole engine:
/// a schema's grammar masks its vocabulary, and the answer is a value of the schema.
@Suite struct GemmaGenerationTests {
    static func requireGemma() throws -> SystemLanguageModel {
        let path = ModelStore.path(of: .gemma3_270m)
        try #require(
            ModelStore.isPresent(.gemma3_270m), "Gemma 3 270M is missing at \(path): run `swift run -c release guided fetch-model gemma3-270m` first")
        return SystemLanguageModel(modelPath: path, contextSize: 1024, threadCount: 2)
    }

    /// (Decoding is faithful and the model is the pretrained one: asked for a recipe, whose arrays
    /// have no bound, it lists ingredients until any budget runs out.)
    @Test(arguments: [
        ("corrected-sentence", "Correct this sentence: 'she go to school every days'.", CorrectedSentence.self as any Generable.Type),
        ("cat-profile", "Describe a shelter cat.", CatProfile.self),
    ])
    func aSchemaFileYieldsItsType(name: String, prompt: String, type: any Generable.Type) async throws {
        let session = LanguageModelSession(model: try Self.requireGemma())
        let response = try await session.respond(
            to: prompt, schema: try schemaFile(name), options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 400))
        #expect(response.rawContent.isComplete)
        _ = try type.init(response.rawContent)
        let statistics = try #require(session.statistics)
        #expect(statistics.forcedTokens > 0)
    }

    /// Free text in Gemma's template: the model's turn holds no turn markers (the pretrained model
    /// follows no instructions, so only the form is checked).
    @Test func textIsAModelTurnWithoutMarkers() async throws {
        let session = LanguageModelSession(model: try Self.requireGemma(), instructions: "Answer in one short sentence.")
        let response = try await session.respond(
            to: "What is the capital of France?", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 200))
        #expect(!response.content.isEmpty)
        #expect(!response.content.contains("<end_of_turn>") && !response.content.contains("<start_of_turn>"))
    }
}

/// A model's context: the option, capped at the length the file says the model was trained for.
@Suite struct ContextLengthTests {
    @Test func theFilesContextLengthCapsTheOption() async throws {
        let gemma = try GemmaGenerationTests.requireGemma()
        #expect(gemma.contextSize == 1024)
        let large = SystemLanguageModel(modelPath: ModelStore.path(of: .gemma3_270m), contextSize: 100_000, threadCount: 2)
        try await large.load()
        #expect(large.contextSize == 32_768)
        // A tiny model trained for 256 positions: a longer prompt is the session's error, not the KV cache's.
        let tiny = SystemLanguageModel(
            modelPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/tiny-gemma3.gguf").path, contextSize: 4096, threadCount: 1)
        try await tiny.load()
        #expect(tiny.contextSize == 256)
        let session = LanguageModelSession(model: tiny)
        await #expect {
            try await session.respond(to: String(repeating: "p1 p2 p3 ", count: 200), options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 4))
        } throws: { error in
            guard case .exceededContextWindowSize = error as? LanguageModelSession.GenerationError else { return false }
            return true
        }
    }
}
