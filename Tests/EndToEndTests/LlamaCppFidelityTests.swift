import Foundation
@testable import GuidedGeneration
import LlamaInference
import PartialJSON
import Testing

/// Faithful decoding, shown against llama.cpp: on the same GGUF, the same prompt tokens and the
/// same schema (llama-server's `/completion` with `json_schema`, greedy), this engine's greedy
/// tokens are llama-server's, token for token. Both grammars allow the same whitespace (the
/// `.free` layout is llama.cpp's), and the model writes every token (no fast-forward), so any
/// difference is the model's arithmetic: the test then reads both engines' logits at the first
/// difference (this engine's by replaying the context, llama.cpp's log probabilities from
/// `n_probs`) and accepts it only as a near-tie, the two tokens within ``tieTolerance`` of each
/// other in both, each engine preferring its own.
@Suite(.serialized) struct LlamaCppFidelityTests {
    /// The widest gap between two tokens' logits, in either engine, at which a difference is a
    /// near-tie of the two engines' arithmetic rather than a choice: the two differ by up to
    /// 0.76 per log probability on Gemma 3 (top 10), more than llama.cpp's own builds (flash
    /// attention on and off) differ from each other.
    static let tieTolerance: Float = 0.5
    /// The most tokens of an answer.
    static let budget = 160

    /// Objects of every kind of value llama.cpp's and this engine's grammars read alike: strings
    /// of bounded length, integers in ranges, numbers, booleans, enums and bounded arrays, all
    /// required. (Unbounded integers differ: llama.cpp's stop at 16 digits.)
    static let schemas: [String: String] = [
        "pet": #"{"type":"object","properties":{"name":{"type":"string","maxLength":30},"age":{"type":"integer","minimum":0,"maximum":30},"adopted":{"type":"boolean"}},"required":["name","age","adopted"],"additionalProperties":false}"#,
        "recipe": #"{"type":"object","properties":{"title":{"type":"string","maxLength":40},"servings":{"type":"integer","minimum":1,"maximum":20},"ingredients":{"type":"array","items":{"type":"string","maxLength":30},"maxItems":3}},"required":["title","servings","ingredients"],"additionalProperties":false}"#,
        "weather": #"{"type":"object","properties":{"city":{"type":"string","maxLength":30},"temperatureCelsius":{"type":"number"},"condition":{"enum":["sunny","cloudy","rainy","snowy"]}},"required":["city","temperatureCelsius","condition"],"additionalProperties":false}"#,
        "book": #"{"type":"object","properties":{"title":{"type":"string","maxLength":40},"author":{"type":"string","maxLength":30},"year":{"type":"integer","minimum":0,"maximum":2100}},"required":["title","author","year"],"additionalProperties":false}"#,
        "task": #"{"type":"object","properties":{"task":{"type":"string","maxLength":40},"priority":{"enum":["low","medium","high"]},"done":{"type":"boolean"}},"required":["task","priority","done"],"additionalProperties":false}"#,
        "product": #"{"type":"object","properties":{"name":{"type":"string","maxLength":30},"price":{"type":"integer","minimum":0,"maximum":9999},"tags":{"type":"array","items":{"type":"string","maxLength":15},"maxItems":3}},"required":["name","price","tags"],"additionalProperties":false}"#,
    ]

    static let pairs: [(schema: String, prompt: String)] = [
        ("pet", "Describe a shelter cat named Luna."),
        ("pet", "Describe a puppy that was just adopted."),
        ("recipe", "Give me a recipe for pancakes."),
        ("recipe", "Give me a recipe for tomato soup."),
        ("weather", "What is the weather like in Paris today?"),
        ("weather", "Report the weather in Oslo in January."),
        ("book", "Name a classic novel."),
        ("book", "Recommend a science fiction book."),
        ("task", "Add a task: call the dentist tomorrow."),
        ("task", "Add an urgent task to fix the server."),
        ("product", "Describe a red coffee mug for sale."),
        ("product", "Describe wireless headphones for sale."),
    ]

    @Test func smolLM2GreedyIsLlamaCpps() async throws {
        try await compare(modelPath: ModelStore.path(of: .smolLM2), name: "SmolLM2-135M-Instruct")
    }

    @Test func gemma3GreedyIsLlamaCpps() async throws {
        try await compare(modelPath: ModelStore.path(of: .gemma3_270m), name: "Gemma 3 270M")
    }

    /// Runs every pair on both engines and checks that the tokens agree up to near-ties.
    private func compare(modelPath: String, name: String) async throws {
        try #require(FileManager.default.fileExists(atPath: modelPath), "\(name) is missing at \(modelPath): run `guided fetch-model` first")
        guard let server = try await LlamaServerProcess.start(model: modelPath) else {
            Issue.record("llama-server is missing: run scripts/build-llama-server.sh first")
            return
        }
        defer { server.stop() }
        let model = SystemLanguageModel(modelPath: modelPath, contextSize: 2048, threadCount: 2)
        let runtime = try model.runtime()
        var identical = 0
        var ties: [String] = []
        for (schemaName, prompt) in Self.pairs {
            let schemaText = try #require(Self.schemas[schemaName])
            let schema = try GenerationSchema(jsonSchema: schemaText)
            // The prompt as the session renders it: the request with the schema described.
            let request = Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: prompt))], responseFormat: Transcript.ResponseFormat(schema: schema))
            let promptTokens = try runtime.tokens(ofConversation: ConversationRenderer.messages(of: Transcript(entries: [.prompt(request)])))
            let session = LanguageModelSession(model: model)
            var options = GenerationOptions(sampling: .greedy, maximumResponseTokens: Self.budget)
            options.jsonLayout = .free
            options.fastForwardsForcedText = false
            options.samplingPreset = .faithful
            // An answer still open at the budget is compared as far as it went.
            do {
                _ = try await session.respond(to: prompt, schema: schema, options: options)
            } catch LanguageModelSession.GenerationError.decodingFailure {}
            let context = session.cache.tokens
            try #require(context.starts(with: promptTokens), "the session read another prompt than the one rendered here")
            let ours = Array(context[promptTokens.count...])
            let answer = try await server.completion(
                .object([
                    "prompt": .array(promptTokens.map { .number(JSONNumber(Int($0))) }), "n_predict": .number(JSONNumber(ours.count < Self.budget ? ours.count + 8 : ours.count)),
                    "temperature": .number(0), "json_schema": try JSONValue(parsing: Array(schemaText.utf8)), "cache_prompt": .bool(false),
                    "return_tokens": .bool(true), "n_probs": .number(10), "repeat_penalty": .number(1), "dry_multiplier": .number(0),
                ]))
            let theirs = try #require(answer["tokens"]?.arrayValue, "llama-server answered \(answer.jsonString)").compactMap {
                try $0.numberValue.map { Int32(try $0.intValue()) }
            }
            // llama-server stops at an end-of-generation token, which it does not return.
            let theirsText = theirs.filter { !runtime.model.specialTokens.contains($0) }
            let common = min(ours.count, theirsText.count)
            guard let split = (0..<common).first(where: { ours[$0] != theirsText[$0] }) ?? (ours.count == theirsText.count ? nil : common) else {
                identical += 1
                continue
            }
            let label = "\(name), \(schemaName), \"\(prompt)\": token \(split) of \(ours.count)"
            guard split < ours.count, split < theirsText.count else {
                let text = { (tokens: [Int32]) in String(decoding: tokens.flatMap { runtime.model.tokenBytes[Int($0)] }, as: UTF8.self).debugDescription }
                Issue.record("\(label): one engine ended where the other went on: \(text(ours)) here, \(text(theirsText)) in llama-server")
                continue
            }
            // This engine's logits at the difference: the two tokens' gap.
            let replay = try runtime.model.makeContext(size: 2048)
            let logits = try replay.evaluate(promptTokens + ours[..<split])
            let gap = logits[Int(ours[split])] - logits[Int(theirsText[split])]
            func spelled(_ token: Int32) -> String { "\(token) \(String(decoding: runtime.model.tokenBytes[Int(token)], as: UTF8.self).debugDescription)" }
            let written = String(decoding: ours[..<split].flatMap { runtime.model.tokenBytes[Int($0)] }, as: UTF8.self)
            // llama.cpp's own gap, from its log probabilities (before the grammar) at that token.
            let top = answer["completion_probabilities"]?.arrayValue?.dropFirst(split).first?["top_logprobs"]?.arrayValue ?? []
            func logProbability(_ token: Int32) -> Double? {
                top.first { (try? $0["id"]?.numberValue?.intValue()) == Int(token) }.flatMap { try? $0["logprob"]?.numberValue?.doubleValue() }
            }
            let theirGap = logProbability(theirsText[split]).flatMap { theirs in logProbability(ours[split]).map { theirs - $0 } }
            let detail = "\(label), after \(written.debugDescription), is \(spelled(ours[split])) here and \(spelled(theirsText[split])) in llama-server: "
                + "\(gap) apart in this engine's logits, \(theirGap.map { "\($0)" } ?? "?") the other way in llama.cpp's"
            #expect(abs(gap) <= Self.tieTolerance && (theirGap ?? .infinity) <= Double(Self.tieTolerance), "\(detail)")
            ties.append(detail)
        }
        print("\(name): \(identical) of \(Self.pairs.count) pairs token for token as llama-server; near-ties: \(ties)")
        #expect(identical + ties.count == Self.pairs.count)
    }
}
