import Foundation
import GuidedGeneration
import Synchronization
import Testing

/// The default model, Qwen2.5-Coder-1.5B-Instruct, which `.ci/run` fetches before the tests run.
func requireModel() throws -> SystemLanguageModel {
    let model = SystemLanguageModel.default
    try #require(model.isAvailable, "the default model is missing: run `swift run -c release guided fetch-model` first")
    return model
}

/// SmolLM2-135M-Instruct (with its small-model preset), for the tests that only need a model to
/// run: fast enough to write every shape of `schemas/`.
let tinyModel = SystemLanguageModel(modelPath: "smollm2-135m-instruct")

/// ``tinyModel``, which `.ci/run` fetches before the tests run.
func requireTinyModel() throws -> SystemLanguageModel {
    try #require(tinyModel.isAvailable, "SmolLM2 is missing: run `swift run -c release guided fetch-model smollm2-135m-instruct` first")
    return tinyModel
}

let greedy = GenerationOptions(sampling: .greedy, maximumResponseTokens: 900)

/// The JSON Schema file of `schemas/`.
func schemaFile(_ name: String) throws -> GenerationSchema {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("schemas/\(name).json")
    return try GenerationSchema(jsonSchema: String(contentsOf: url, encoding: .utf8))
}

@Suite(.serialized) struct EndToEndTests {
    /// Each file's schema, given to a real model, yields content that becomes the file's Swift
    /// type: the tiny model, or (`true`) the default model where the tiny model's greedy answer
    /// lists items until the budget (its pancake recipe, 53 ingredients and more, and its running
    /// plan), as it does when it writes every token itself.
    @Test(arguments: [
        ("bedtime-story", "Tell a bedtime story about a brave lion.", BedtimeStory.self as any Generable.Type, false),
        ("cat-profile", "Describe a shelter cat that needs a home.", CatProfile.self, false),
        ("contacts-tool-arguments", "Find the phone numbers of people called Smith.", ContactsArguments.self, false),
        ("corrected-sentence", "Correct this sentence: 'she go to school every days'.", CorrectedSentence.self, false),
        ("itinerary", "Plan a three-day trip to Kyoto.", Itinerary.self, false),
        ("recipe", "Give me a recipe for pancakes.", Recipe.self, true),
        ("trip-ideas", "Suggest trips for a family who loves beaches.", TripIdeas.self, false),
        ("workout-plan", "Make a three-day strength training plan for an intermediate lifter.", WorkoutPlan.self, true),
    ])
    func schemaFileYieldsItsType(name: String, prompt: String, type: any Generable.Type, onDefaultModel: Bool) async throws {
        let session = LanguageModelSession(model: try onDefaultModel ? requireModel() : requireTinyModel())
        // The itinerary's greedy answer is long, and its length moves with the kernels' rounding:
        // 744 tokens with the avx2 kernels, 914 with avx512.
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 1200)
        let response = try await session.respond(to: prompt, schema: try schemaFile(name), options: options)
        #expect(response.rawContent.isComplete)
        _ = try type.init(response.rawContent)
        let statistics = try #require(session.statistics)
        #expect(statistics.forcedTokens > 0)
        #expect(statistics.responseTokens <= 1200)
    }

    /// A recursive type is written as the model chooses: a model that gives each reply a reply of
    /// its own until the budget runs out (decoding is faithful; no nudge closes its arrays) gets
    /// a decoding failure that says how deep it went; a model that stops nesting gives a `Comment`.
    @Test func aRecursiveTypeNestsAsTheModelChooses() async throws {
        let session = LanguageModelSession(model: try requireTinyModel())
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 600)
        do {
            let response = try await session.respond(
                to: "Write a comment about a new phone, with one reply.", schema: try schemaFile("comment-thread"), options: options)
            _ = try Comment(response.rawContent)
        } catch LanguageModelSession.GenerationError.decodingFailure(let context) {
            #expect(context.debugDescription.contains(#"in property "replies"[0].replies[0].replies[0]"#), "\(context.debugDescription)")
        }
    }

    /// Streaming gives snapshots that only grow, ending with the value a greedy `respond` gives
    /// (the default model's pancake recipe).
    @Test func streamingIsMonotoneAndGreedyRepeats() async throws {
        let model = try requireModel()
        let prompt = "Give me a recipe for pancakes."
        let schema = try schemaFile("recipe")
        var snapshots: [GeneratedContent] = []
        for try await snapshot in LanguageModelSession(model: model).streamResponse(to: prompt, schema: schema, options: greedy) {
            snapshots.append(snapshot.rawContent)
        }
        #expect(snapshots.count > 10)
        for (previous, next) in zip(snapshots, snapshots.dropFirst()) {
            #expect(next.extends(previous), "\(next.jsonString) does not extend \(previous.jsonString)")
        }
        let first = try await LanguageModelSession(model: model).respond(to: prompt, schema: schema, options: greedy)
        let second = try await LanguageModelSession(model: model).respond(to: prompt, schema: schema, options: greedy)
        #expect(first.rawContent.jsonString == second.rawContent.jsonString)
        #expect(snapshots.last?.jsonString == first.rawContent.jsonString)
        #expect(snapshots.last?.isComplete == true)
        _ = try Recipe(first.rawContent)
    }

    /// Questions with one right answer, asked with a schema: the instruct model answers them
    /// right, greedy.
    @Test func exactAnswersAreRight() async throws {
        let model = try requireModel()
        let capital = try await LanguageModelSession(model: model).respond(
            to: "What is the capital of France?", generating: CapitalCity.self, options: greedy)
        #expect(capital.content.city.contains("Paris"), "\(capital.rawContent.jsonString)")
        let sum = try await LanguageModelSession(model: model).respond(
            to: "What is 17 plus 25?", generating: WholeNumberAnswer.self, options: greedy)
        #expect(sum.content.answer == 42, "\(sum.rawContent.jsonString)")
        let days = try await LanguageModelSession(model: model).respond(
            to: "How many days are there in a week?", generating: WholeNumberAnswer.self, options: greedy)
        #expect(days.content.answer == 7, "\(days.rawContent.jsonString)")
    }

    /// A text response, and a follow-up that sees it.
    @Test func textAndFollowUp() async throws {
        let session = LanguageModelSession(model: try requireModel(), instructions: "You answer in one short sentence.")
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 60)
        let answer = try await session.respond(to: "What is the capital of France?", options: options)
        #expect(answer.content.contains("Paris"))
        let followUp = try await session.respond(to: "And of Italy?", options: options)
        #expect(!followUp.content.isEmpty)
        #expect(session.transcript.count == 5)
        #expect((session.statistics?.cachedPromptTokens ?? 0) > 20)
    }
}

@Generable struct CapitalCity {
    var city: String
}

@Generable struct WholeNumberAnswer {
    var answer: Int
}

/// The names a phone book was asked for.
final class LookupLog: Sendable {
    let names = Mutex<[String]>([])
}

/// A phone book that records the names it was asked for.
struct PhoneBook: Tool {
    let name = "findContact"
    let description = "Finds the phone number of a person in the user's contacts."
    let log = LookupLog()

    @Generable
    struct Arguments {
        @Guide(description: "The person's name")
        var name: String
    }

    func call(arguments: Arguments) async throws -> String {
        log.names.withLock { $0.append(arguments.name) }
        return "The phone number of \(arguments.name) is +1 555 0142."
    }
}

@Suite(.serialized) struct ToolEndToEndTests {
    /// Instructions that demand a lookup get a call with valid arguments, and an answer that uses
    /// its output; a follow-up on the same session reads only its new tokens.
    @Test func lookupIsCalledAndItsOutputUsed() async throws {
        let book = PhoneBook()
        let session = LanguageModelSession(
            model: try requireModel(), tools: [book],
            instructions: "You do not know anyone's phone number: always look it up with a tool first, then answer with what it returned.")
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 120)
        let answer = try await session.respond(to: "What is Anna's phone number?", options: options)
        let names = book.log.names.withLock { $0 }
        #expect(names.contains { $0.contains("Anna") })
        #expect(answer.content.contains("555"))
        let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in
            if case .toolCalls(let calls) = entry { return Array(calls) }
            return []
        }
        for call in calls {
            #expect(call.toolName == "findContact")
            #expect(throws: Never.self) { try PhoneBook.Arguments(call.arguments) }
        }
        let first = try #require(session.statistics)
        _ = try await session.respond(to: "Thank you. Is it a mobile number?", options: options)
        let followUp = try #require(session.statistics)
        #expect(followUp.cachedPromptTokens > first.promptTokens / 2)
        #expect(followUp.promptTokens - followUp.cachedPromptTokens < first.promptTokens - first.cachedPromptTokens)
    }
}

extension ToolEndToEndTests {
    /// In the model's own format (Qwen2.5's `<tool_call>` tags, its template presenting the
    /// tools), a turn that must call writes one call per person asked about, each with valid
    /// arguments, and the request ends with an answer. (What the answer says is the model's: after
    /// the outputs, this model writes another call as text in a code fence rather than the
    /// numbers, Benchmarks/README.md.)
    @Test func callsInTheModelsOwnFormat() async throws {
        let book = PhoneBook()
        let session = LanguageModelSession(model: try requireModel(), tools: [book])
        var options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 120, toolCallingMode: .required)
        options.toolCallFormat = .modelTemplate
        let answer = try await session.respond(to: "What are the phone numbers of Anna and Bob?", options: options)
        let rounds = session.transcript.compactMap { entry -> Transcript.ToolCalls? in if case .toolCalls(let calls) = entry { calls } else { nil } }
        let first = try #require(rounds.first)
        let names = try first.map { try PhoneBook.Arguments($0.arguments).name }
        #expect(first.allSatisfy { $0.toolName == "findContact" })
        #expect(names.contains { $0.contains("Anna") } && names.contains { $0.contains("Bob") })
        #expect(!answer.content.isEmpty)
        guard case .response? = session.transcript.last else {
            Issue.record("the transcript does not end with the answer")
            return
        }
    }
}

extension GeneratedContent {
    /// Whether this content is `earlier` grown: every string, array and structure of `earlier`
    /// is a prefix of the one here.
    func extends(_ earlier: GeneratedContent) -> Bool {
        switch (earlier.kind, kind) {
        case (.string(let before), .string(let after)): return after.hasPrefix(before)
        case (.array(let before), .array(let after)):
            return before.count <= after.count && zip(before, after).allSatisfy { $1.extends($0) }
        case (.structure(let before, let beforeKeys), .structure(let after, let afterKeys)):
            return afterKeys.starts(with: beforeKeys) && beforeKeys.allSatisfy { key in after[key].map { $0.extends(before[key]!) } ?? false }
        default: return earlier.isComplete ? earlier.kind == kind : true
        }
    }
}
