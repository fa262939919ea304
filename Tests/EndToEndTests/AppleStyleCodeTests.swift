import Foundation
import GuidedGeneration
import GuidedServer
import Testing

/// The Apple-style code of AppleStyleCode.swift on the embedded model, then unchanged but for
/// the model its sessions are given: `guided serve`'s endpoint, and llama.cpp's `llama-server`.
@Suite(.serialized) struct AppleStyleCodeTests {
    /// SmolLM2's small-model preset does not act on text: its story ends. (The 0.5B default model,
    /// faithful, loops in some seeds' stories, as under llama-server: 3 of 8 seeds reach 400
    /// tokens there.)
    @Test func aStoryEndsByItself() async throws {
        let (text, statistics) = try await StoryTeller(model: try requireTinyModel()).story()
        #expect(text.count > 200)
        #expect(statistics?.isTruncated == false, "the story was cut after \(statistics?.responseTokens ?? 0) tokens")
    }

    @Test func appleStyleCodeRuns() async throws {
        _ = try requireModel()
        try await runAppleStyleCode(on: SystemLanguageModel.default)
    }

    /// The same code with its sessions given a served model: `guided serve`'s endpoint over
    /// the default model, started here on a free port.
    @Test func appleStyleCodeRunsAgainstGuidedServe() async throws {
        _ = try requireModel()
        let server = try HTTPServer(port: 0, handler: OpenAIEndpoint(model: SystemLanguageModel.default, name: "qwen2.5-coder-1.5b"))
        defer { server.stop() }
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)/v1"))
        try await runAppleStyleCode(on: OpenAICompatibleLanguageModel(baseURL: base, model: "qwen2.5-coder-1.5b", apiKey: nil))
    }

    /// The same code against llama.cpp's `llama-server` on the same GGUF: its grammar lets the
    /// model run on where ours would not, so each answer is a valid value or a decoding failure
    /// that the client found, never a wrong value.
    @Test func appleStyleCodeRunsAgainstLlamaServer() async throws {
        _ = try requireModel()
        let server = try #require(
            try await LlamaServerProcess.start(), "llama-server or its model is missing: run scripts/build-llama-server.sh and `guided fetch-model`")
        defer { server.stop() }
        try await runAppleStyleCode(on: OpenAICompatibleLanguageModel(baseURL: server.base, model: "qwen2.5-coder-1.5b", apiKey: nil), strict: false)
    }

    /// Runs every piece of the Apple-style code on `model`; `strict` expects values where a
    /// server may instead return output the client refuses.
    private func runAppleStyleCode(on model: some LanguageModel, strict: Bool = true) async throws {
        func attempt<T>(_ body: () async throws -> T) async throws -> T? {
            do {
                return try await body()
            } catch LanguageModelSession.GenerationError.decodingFailure(let context) where !strict {
                #expect(!context.debugDescription.isEmpty)
                return nil
            }
        }
        let suggester = LandmarkSuggester(model: model)
        #expect(suggester.availabilityText() == "ready")
        if let suggestions = try await attempt({ try await suggester.suggestions() }) {
            #expect(suggestions.searchTerms.count == 4)
        }
        var partials: [ShelterCat.PartiallyGenerated] = []
        if let cat = try await attempt({ try await suggester.streamCat { partials.append($0) } }) {
            #expect((0...20).contains(cat.age))
            #expect(partials.last?.name != nil)
        }
        if let mood = try await attempt({ try await suggester.mood() }) {
            #expect(mood.word.first?.isUppercase == true)
        }
        do {
            let number = try await ContactsAssistant(model: model).phoneNumber()
            #expect(!number.isEmpty)
        } catch let error as LanguageModelSession.GenerationError where !strict {
            // A server may answer the tool turn with something the session refuses, by name.
            #expect(error.errorDescription != nil)
        }
    }
}
