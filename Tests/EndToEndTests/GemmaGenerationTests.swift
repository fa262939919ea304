import Foundation
import GuidedGeneration
import LlamaInference
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

    @Test(arguments: [("recipe", "Give me a recipe for pancakes.", Recipe.self as any Generable.Type), ("cat-profile", "Describe a shelter cat.", CatProfile.self)])
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
