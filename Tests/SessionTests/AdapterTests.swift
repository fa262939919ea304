import Foundation
import Testing

@testable import GuidedGeneration

/// `SystemLanguageModel.Adapter` reads LoRA adapters in GGUF; anything else is a typed error
/// naming what is wrong. (The adapter's effect on the model, against llama.cpp's `--lora`, is
/// checked in `LoRAAdapterTests`.)
@Suite struct AdapterTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func anAdapterFileIsReadWithItsMetadata() throws {
        let adapter = try SystemLanguageModel.Adapter(fileURL: Self.fixtures.appendingPathComponent("tiny-llama-lora.gguf"))
        #expect(adapter.creatorDefinedMetadata["adapter.type"] as? String == "lora")
        #expect(adapter.creatorDefinedMetadata["adapter.lora.alpha"] as? Double == 8)
        #expect(adapter.lora.architecture == "llama")
    }

    @Test func otherFilesAreRefused() throws {
        for (name, reason) in [("tiny-llama.gguf", "this file is a model, not an adapter"), ("chat-templates.json", "not a GGUF file")] {
            do {
                _ = try SystemLanguageModel.Adapter(fileURL: Self.fixtures.appendingPathComponent(name))
                Issue.record("\(name) was read as an adapter")
            } catch SystemLanguageModel.Adapter.AssetError.invalidAsset(let context) {
                #expect(context.debugDescription.contains(reason), "\(context.debugDescription)")
            }
        }
    }

    @Test func namesAreLookedUpInTheAdaptersFolder() throws {
        #expect(throws: SystemLanguageModel.Adapter.AssetError.self) { try SystemLanguageModel.Adapter(name: "../escape") }
        do {
            _ = try SystemLanguageModel.Adapter(name: "no-such-adapter-\(UUID().uuidString)")
            Issue.record("a missing adapter was found")
        } catch SystemLanguageModel.Adapter.AssetError.compatibleAdapterNotFound {}
    }

    /// The adapter reaches the model a session runs: the tiny Llama file answers otherwise with it.
    @Test func aSessionRunsTheAdaptedModel() async throws {
        let path = Self.fixtures.appendingPathComponent("tiny-llama.gguf").path
        let adapter = try SystemLanguageModel.Adapter(fileURL: Self.fixtures.appendingPathComponent("tiny-llama-lora.gguf"))
        var answers: [String] = []
        for model in [SystemLanguageModel(modelPath: path, contextSize: 256, chatTemplate: "chatml", threadCount: 1),
                      SystemLanguageModel(modelPath: path, contextSize: 256, chatTemplate: "chatml", threadCount: 1, adapter: adapter)] {
            let session = LanguageModelSession(model: model)
            let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 8)
            answers.append(try await session.respond(to: "p1 p2 p3", options: options).content)
        }
        #expect(answers[0] != answers[1], "\(answers)")
    }
}
