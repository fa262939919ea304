import Foundation
@testable import GuidedGeneration
import LlamaInference
import ModelFetching
import PartialJSON
import Testing
import TestSupport

/// Faithful decoding, shown against llama.cpp: on the same GGUF, the same prompt tokens and the
/// same schema (llama-server's `/completion` with `json_schema`, greedy), in two ways. Both
/// grammars allow the same whitespace (the `.free` layout is llama.cpp's), and the model writes
/// every token (no fast-forward).
///
/// 1. The decoder on llama.cpp's own logits (its log probabilities before sampling, `n_probs`,
///    replayed by ``ReplayedLogitsBackend``) writes llama-server's answer token for token, with no
///    tolerance: the same numbers, masked by this engine's grammar and chosen by its sampling
///    chain, give the same choices.
/// 2. This engine on its own logits writes llama-server's answer too, except where the two
///    engines' arithmetic tips a near-tie: at the first difference the test reads both engines'
///    logits (this engine's along llama-server's answer, llama.cpp's from `n_probs`) and accepts it
///    only when the two tokens are within ``tieTolerance`` of each other in both, each engine
///    preferring its own.
@Suite(.serialized, .threadOfItsOwn) struct LlamaCppFidelityTests {
    /// The widest gap between two tokens' logits, in either engine, at which a difference is a
    /// near-tie of the two engines' arithmetic rather than a choice: along llama-server's answers
    /// the two engines' log probabilities of its ten most likely tokens differ by up to 0.9
    /// (SmolLM2) and 1.25 (Gemma 3), as 8-bit activations round differently (llama.cpp's own
    /// builds, flash attention on and off, differ from each other as much).
    static let tieTolerance: Float = 0.5
    /// How many of llama.cpp's most likely tokens it reports at each step.
    static let reportedTokens = 1000
    /// llama-server reads the whole prompt as one batch, as this engine does.
    static let serverArguments = ["--ctx-checkpoints", "0"]
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

    @Test func qwen25Coder05BGreedyIsLlamaCpps() async throws {
        try await compare(modelPath: ModelStore.path(of: .qwen25Coder05B), name: "Qwen2.5-Coder-0.5B-Instruct")
    }

    @Test func gemma3GreedyIsLlamaCpps() async throws {
        try await compare(modelPath: ModelStore.path(of: .gemma3_270m), name: "Gemma 3 270M")
    }

    /// Runs every pair on both engines and checks, for each, that this engine's decoder on
    /// llama.cpp's logits writes llama.cpp's answer exactly, and that this engine on its own
    /// logits writes it too, up to near-ties of the two engines' arithmetic.
    private func compare(modelPath: String, name: String) async throws {
        try #require(FileManager.default.fileExists(atPath: modelPath), "\(name) is missing at \(modelPath): run `guided fetch-model` first")
        guard let server = try await LlamaServerProcess.start(model: modelPath, extraArguments: Self.serverArguments) else {
            Issue.record("llama-server is missing: run scripts/build-llama-server.sh first")
            return
        }
        defer { server.stop() }
        let model = SystemLanguageModel(modelPath: modelPath, contextSize: 2048, threadCount: 2)
        let runtime = try model.runtime()
        let loaded = runtime.model
        var identical = 0
        var replayedExactly = 0
        var ties: [String] = []
        var largestDifference: Float = 0
        var unreported = 0
        func spelled(_ token: Int32) -> String { "\(token) \(String(decoding: loaded.tokenBytes[Int(token)], as: UTF8.self).debugDescription)" }
        func text(_ tokens: ArraySlice<Int32>) -> String { String(decoding: tokens.flatMap { loaded.tokenBytes[Int($0)] }, as: UTF8.self).debugDescription }
        for (schemaName, prompt) in Self.pairs {
            let schemaText = try #require(Self.schemas[schemaName])
            let schema = try GenerationSchema(jsonSchema: schemaText)
            // The prompt as the session renders it: the request with the schema described.
            let request = Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: prompt))], responseFormat: Transcript.ResponseFormat(schema: schema))
            let promptTokens = try runtime.tokens(ofConversation: ConversationRenderer.messages(of: Transcript(entries: [.prompt(request)])))
            let label = "\(name), \(schemaName), \"\(prompt)\""

            // llama-server's greedy answer under its own grammar, with its log probabilities
            // before sampling at every step.
            let answer = try await server.completion(
                .object([
                    "prompt": .array(promptTokens.map { .number(JSONNumber(Int($0))) }), "n_predict": .number(JSONNumber(Self.budget)),
                    "temperature": .number(0), "json_schema": try JSONValue(parsing: Array(schemaText.utf8)), "cache_prompt": .bool(false),
                    "return_tokens": .bool(true), "n_probs": .number(JSONNumber(Self.reportedTokens)), "post_sampling_probs": .bool(false),
                    "repeat_penalty": .number(1), "dry_multiplier": .number(0),
                ]))
            let trace = try Self.trace(of: answer, prompt: promptTokens, specialTokens: loaded.specialTokens)
            unreported += trace.unreportedSteps.count
            let theirs = trace.answer

            // 1. This engine's decoder on llama.cpp's own logits: llama.cpp's answer, exactly.
            let recorder = ReplayRecorder()
            let replay = LanguageModelSession(
                model: SystemLanguageModel(backend: ReplayedLogitsBackend(model: loaded, trace: trace, contextSize: 2048, recorder: recorder)))
            // A departure from the trace, its end or the budget stops it: the tokens it was given
            // tell which.
            _ = try? await replay.respond(to: prompt, schema: schema, options: Self.options)
            let replayed = Array(recorder.tokens.dropFirst(promptTokens.count))
            if replayed == theirs {
                replayedExactly += 1
            } else {
                let step = zip(replayed, theirs).prefix { $0 == $1 }.count
                let chosen = step < replayed.count ? spelled(replayed[step]) : "the end"
                let logProbabilities = step < trace.steps.count ? trace.steps[step] : [:]
                Issue.record(
                    "\(label): on llama.cpp's logits this decoder wrote \(chosen) at step \(step) (log probability \(step < replayed.count ? logProbabilities[replayed[step]].map { "\($0)" } ?? "below the top" : "-")) where llama-server wrote \(step < theirs.count ? spelled(theirs[step]) : "the end") (\(step < theirs.count ? logProbabilities[theirs[step]].map { "\($0)" } ?? "below the top" : "-")), after \(text(theirs[..<min(step, theirs.count)]))")
            }

            // 2. This engine on its own logits, along llama.cpp's answer: the arithmetic's
            // difference, and this engine's free answer.
            let context = try loaded.makeContext(size: 2048)
            var ownLogProbabilities: [[Float]] = []
            var logits = try context.evaluate(promptTokens)
            for step in 0..<min(trace.steps.count, theirs.count + 1) {
                let own = Self.logProbabilities(logits)
                ownLogProbabilities.append(own)
                // The two engines' log probabilities of llama.cpp's ten most likely tokens.
                for (token, logProbability) in trace.steps[step].sorted(by: { $0.value > $1.value }).prefix(10) {
                    largestDifference = max(largestDifference, abs(own[Int(token)] - logProbability))
                }
                if step < theirs.count { logits = try context.evaluate([theirs[step]]) }
            }
            let writer = ReplayRecorder()
            let session = LanguageModelSession(model: SystemLanguageModel(backend: RecordingBackend(model: loaded, contextSize: 2048, recorder: writer)))
            // An answer still open at the budget is compared as far as it went.
            do {
                _ = try await session.respond(to: prompt, schema: schema, options: Self.options)
            } catch LanguageModelSession.GenerationError.decodingFailure {}
            let written = writer.tokens
            try #require(written.starts(with: promptTokens), "the session read another prompt than the one rendered here")
            let ours = Array(written[promptTokens.count...])
            let common = min(ours.count, theirs.count)
            guard let split = (0..<common).first(where: { ours[$0] != theirs[$0] }) ?? (ours.count == theirs.count ? nil : common) else {
                identical += 1
                continue
            }
            guard split < ours.count, split < theirs.count, split < ownLogProbabilities.count else {
                Issue.record("\(label): one engine ended where the other went on: \(text(ours[...])) here, \(text(theirs[...])) in llama-server")
                continue
            }
            let gap = ownLogProbabilities[split][Int(ours[split])] - ownLogProbabilities[split][Int(theirs[split])]
            let theirGap = trace.steps[split][theirs[split]].flatMap { theirs in trace.steps[split][ours[split]].map { theirs - $0 } }
            let detail = "\(label): token \(split) of \(ours.count), after \(text(ours[..<split])), is \(spelled(ours[split])) here and \(spelled(theirs[split])) in llama-server: "
                + "\(gap) apart in this engine's logits, \(theirGap.map { "\($0)" } ?? "?") the other way in llama.cpp's"
            #expect(abs(gap) <= Self.tieTolerance && (theirGap ?? .infinity) <= Self.tieTolerance, "\(detail)")
            ties.append(detail)
        }
        print(
            "\(name): on llama.cpp's logits, \(replayedExactly) of \(Self.pairs.count) answers llama-server's token for token (\(unreported) "
                + "steps where its token was below its top \(Self.reportedTokens)); on its own, "
                + "\(identical) of \(Self.pairs.count), the rest at near-ties: \(ties); largest difference of a log probability of llama.cpp's "
                + "ten most likely tokens along its answers: \(largestDifference)")
        #expect(replayedExactly == Self.pairs.count)
        #expect(identical + ties.count == Self.pairs.count)
    }

    /// Greedy in the whitespace llama.cpp's grammars allow, every token written by the model.
    static var options: GenerationOptions {
        var options = GenerationOptions(sampling: .greedy, maximumResponseTokens: budget)
        options.jsonLayout = .free
        options.fastForwardsForcedText = false
        options.samplingPreset = .faithful
        return options
    }

    /// llama-server's answer and its log probabilities before sampling, from a `/completion`
    /// answer with `return_tokens` and `n_probs`.
    static func trace(of answer: JSONValue, prompt: [Int32], specialTokens: Set<Int32>) throws -> LogitsTrace {
        func id(_ value: JSONValue?) -> Int32? { (try? value?.numberValue?.intValue()).flatMap { $0.map { Int32($0) } } }
        let tokens = try #require(answer["tokens"]?.arrayValue, "llama-server answered \(answer.jsonString)").compactMap(id)
        let steps = (answer["completion_probabilities"]?.arrayValue ?? []).map { step in
            Dictionary(
                (step["top_logprobs"]?.arrayValue ?? []).compactMap { entry -> (Int32, Float)? in
                    guard let token = id(entry["id"]), let value = try? entry["logprob"]?.numberValue?.doubleValue() else { return nil }
                    return (token, Float(value))
                }, uniquingKeysWith: max)
        }
        // llama-server stops at an end-of-generation token, which it does not return.
        return LogitsTrace(prompt: prompt, answer: tokens.filter { !specialTokens.contains($0) }, steps: steps)
    }

    /// The log probabilities of `logits`.
    static func logProbabilities(_ logits: UnsafeBufferPointer<Float>) -> [Float] {
        let largest = logits.max() ?? 0
        let total = logits.reduce(Double(0)) { $0 + exp(Double($1 - largest)) }
        let offset = largest + Float(log(total))
        return logits.map { $0 - offset }
    }
}
