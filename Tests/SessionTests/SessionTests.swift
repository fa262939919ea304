import Foundation
import GuidedGeneration
import Testing

@Generable
struct Pet: Equatable {
    @Guide(description: "The pet's name")
    var name: String
    @Guide(.range(0...20))
    var age: Int
    var tags: [String]
}

/// A session on a scripted model.
func session(_ model: ScriptedModel, instructions: String? = "Be brief.") -> LanguageModelSession {
    LanguageModelSession(model: SystemLanguageModel(backend: model), instructions: instructions)
}

@Suite struct SessionTests {
    @Test func textResponseAndTranscript() async throws {
        let model = ScriptedModel(replies: ["Hello there"])
        let session = session(model)
        let response = try await session.respond(to: "Say hello")
        #expect(response.content == "Hello there")
        #expect(response.rawContent == GeneratedContent(kind: .string("Hello there")))
        #expect(response.transcriptEntries.count == 2)
        let entries = Array(session.transcript)
        #expect(entries.count == 3)
        guard case .instructions = entries[0], case .prompt(let prompt) = entries[1], case .response(let answer) = entries[2] else {
            Issue.record("unexpected entries \(entries)")
            return
        }
        #expect(prompt.segments == [.text(Transcript.TextSegment(id: prompt.segments[0].id, content: "Say hello"))])
        #expect(answer.segments.count == 1)
        #expect(!session.isResponding)
        #expect(model.conversations.last == "<|system|>Be brief.<|end|><|user|>Say hello<|end|><|assistant|>")
        // The response's usage is the request's statistics.
        let statistics = try #require(session.statistics)
        #expect(response.usage.input.totalTokenCount == statistics.promptTokens && response.usage.output.totalTokenCount == statistics.responseTokens)
        #expect(response.usage.output.totalTokenCount > 0 && response.usage == session.usage)
    }

    @Test func generableResponseFollowsTheScript() async throws {
        let reply = #"{"name":"Rex","age":3,"tags":["good","dog"]}"#
        let response = try await session(ScriptedModel(replies: [reply])).respond(to: "A pet", generating: Pet.self)
        #expect(response.content == Pet(name: "Rex", age: 3, tags: ["good", "dog"]))
        #expect(response.rawContent.jsonString == reply)
    }

    /// The script breaks the schema (an age out of range, an unknown key, keys out of order); the
    /// masks keep the output valid whatever the model prefers.
    @Test(arguments: [
        #"{"name":"Rex","age":500,"tags":[]}"#, #"{"age":3,"name":"Rex","tags":[]}"#, #"{"name":"Rex","color":"red"}"#,
        "Sure! Here is a pet:",
    ])
    func invalidPreferencesStillGiveValidValues(reply: String) async throws {
        let response = try await session(ScriptedModel(replies: [reply])).respond(
            to: "A pet", generating: Pet.self, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 400))
        #expect((0...20).contains(response.content.age))
        #expect(response.rawContent.isComplete)
    }

    @Test func schemaResponseAndPromptText() async throws {
        let model = ScriptedModel(replies: [#"{"name":"Tom","age":2,"tags":[]}"#, #"{"name":"Tom","age":2,"tags":[]}"#])
        let session = session(model)
        let response = try await session.respond(to: "A pet", schema: Pet.generationSchema)
        #expect(try response.content.value(String.self, forProperty: "name") == "Tom")
        #expect(model.conversations.last?.contains("\"age\": integer, at least 0, at most 20") == true)
        #expect(model.conversations.last?.contains("// The pet's name") == true)
        // The schema is described in the system message, with the short request said again after
        // it; the request stands alone in its own message.
        let first = try #require(model.conversations.last)
        #expect(first.hasPrefix("<|system|>Be brief.\n\nRespond with a JSON value (pet) of this form:\n{"))
        #expect(first.hasSuffix("}\n\nThe request: A pet<|end|><|user|>A pet<|end|><|assistant|>"))
        _ = try await session.respond(to: "Another", schema: Pet.generationSchema, includeSchemaInPrompt: false)
        let last = try #require(model.conversations.last)
        #expect(last.hasSuffix("<|user|>Another<|end|><|assistant|>"))
        #expect(!last.contains("Respond with"))
    }

    @Test func withoutInstructionsTheSchemaIsTheSystemMessage() async throws {
        let model = ScriptedModel(replies: [#"{"name":"Tom","age":2,"tags":[]}"#])
        _ = try await session(model, instructions: nil).respond(to: "A pet", schema: Pet.generationSchema)
        let last = try #require(model.conversations.last)
        #expect(last.hasPrefix("<|system|>Respond with a JSON value (pet) of this form:\n{"))
        #expect(last.hasSuffix("}\n\nThe request: A pet<|end|><|user|>A pet<|end|><|assistant|>"))
    }

    @Test func aLongRequestIsNotSaidAgain() async throws {
        let model = ScriptedModel(replies: [#"{"name":"Tom","age":2,"tags":[]}"#])
        let request = "A pet. " + String(repeating: "It likes long walks. ", count: 30)
        _ = try await session(model).respond(to: request, schema: Pet.generationSchema)
        let last = try #require(model.conversations.last)
        #expect(!last.contains("The request:"))
        #expect(last.hasSuffix("}<|end|><|user|>\(request)<|end|><|assistant|>"))
    }

    @Test func streamingGivesGrowingSnapshotsThenTheValue() async throws {
        let reply = #"{"name":"Rex","age":3,"tags":["good","dog"]}"#
        let session = session(ScriptedModel(replies: [reply, reply]))
        var snapshots: [LanguageModelSession.ResponseStream<Pet>.Snapshot] = []
        for try await snapshot in session.streamResponse(to: "A pet", generating: Pet.self) {
            snapshots.append(snapshot)
        }
        #expect(snapshots.count > 5)
        let texts = snapshots.map(\.rawContent.jsonString)
        // Each snapshot's text, closed where it stops, grows from the previous one.
        for (previous, next) in zip(texts, texts.dropFirst()) {
            let open = previous.prefix { _ in true }.dropLast(previous.reversed().prefix { "\"]}".contains($0) }.count)
            #expect(next.hasPrefix(open), "\(next) does not continue \(previous)")
        }
        #expect(snapshots.last?.rawContent.isComplete == true)
        #expect(snapshots.last?.content.name == "Rex")
        #expect(snapshots.last?.content.tags == ["good", "dog"])
        // One identity for the value across snapshots.
        #expect(Set(snapshots.map(\.content.id)).count == 1)
        let collected = try await session.streamResponse(to: "Again", generating: Pet.self).collect()
        #expect(collected.content == Pet(name: "Rex", age: 3, tags: ["good", "dog"]))
        #expect(session.transcript.count == 5)
    }

    @Test func textStreaming() async throws {
        let session = session(ScriptedModel(replies: ["One two three"]))
        var texts: [String] = []
        for try await snapshot in session.streamResponse(to: "Count") { texts.append(snapshot.content) }
        #expect(texts.last == "One two three")
        #expect(zip(texts, texts.dropFirst()).allSatisfy { $1.hasPrefix($0) })
    }

    /// Each snapshot carries the request's output tokens so far: they grow with the text.
    @Test func snapshotsCarryTheUsageSoFar() async throws {
        let session = session(ScriptedModel(replies: ["One two three four five"]))
        var counts: [Int] = []
        for try await snapshot in session.streamResponse(to: "Count") { counts.append(snapshot.usage.output.totalTokenCount) }
        #expect(counts.count > 2)
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(try #require(counts.last) > 0)
    }

    @Test func followUpSeesTheEarlierTurnAndReusesTheCache() async throws {
        let model = ScriptedModel(replies: ["First answer", "Second answer"])
        let session = session(model)
        try await session.respond(to: "First question")
        let firstCost = model.evaluatedTokenCount
        try await session.respond(to: "Second question")
        let conversation = try #require(model.conversations.last)
        #expect(conversation.contains("<|user|>First question<|end|><|assistant|>First answer<|end|><|user|>Second question"))
        let statistics = try #require(session.statistics)
        #expect(statistics.cachedPromptTokens >= firstCost - 1)
        #expect(model.evaluatedTokenCount - firstCost < conversation.utf8.count / 2)
    }

    /// Each turn, and a prewarm, ends by saying that its context runs nothing more until the next
    /// request, after its last token ran: a model batching several contexts waits no more for it.
    /// A text answer's last token ran for the logits that ended the turn; a complete JSON value's
    /// last token, and the last within the budget, stay unread, and the next turn reads them
    /// with its prompt.
    @Test func eachTurnPausesItsContextAfterItsLastToken() async throws {
        let model = ScriptedModel(replies: ["First answer", #"{"name":"Tom","age":2,"tags":[]}"#, "Third answer", "Fourth"])
        let session = session(model)
        try await session.respond(to: "First question")
        #expect(model.pauses.map(\.evaluated) == [model.evaluatedTokenCount])
        #expect(model.pauses.last?.unread == [])
        _ = try await session.respond(to: "Second question", schema: Pet.generationSchema)
        #expect(model.pauses.count == 2)
        #expect(model.pauses.last?.evaluated == model.evaluatedTokenCount)
        #expect(model.pauses.last?.unread == model.tokenize("}", parsingSpecialTokens: false))
        let response = try await session.respond(to: "Third question", options: GenerationOptions(maximumResponseTokens: 3))
        #expect(response.content == "Thi")
        #expect(model.pauses.last?.unread == model.tokenize("i", parsingSpecialTokens: false))
        let third = try #require(session.statistics)
        // The next prompt reuses the third prompt and the two tokens read after it, and reads the
        // unread one with its own.
        try await session.respond(to: "Fourth question")
        #expect(try #require(session.statistics).cachedPromptTokens == third.promptTokens + 2)
        session.prewarm(promptPrefix: Prompt("Fifth"))
        while model.pauses.count < 5 { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(model.pauses.last?.evaluated == model.evaluatedTokenCount)
    }

    @Test func prewarmComputesTheInstructionsAhead() async throws {
        let model = ScriptedModel(replies: ["Fine"])
        let session = session(model, instructions: "You are a very patient assistant who answers briefly.")
        session.prewarm(promptPrefix: Prompt("Question:"))
        while model.evaluatedTokenCount == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        try await session.respond(to: "Question: how are you?")
        let statistics = try #require(session.statistics)
        // The system message and "<|user|>Question:" were computed by the prewarm.
        let shared = model.tokenize("<|system|>You are a very patient assistant who answers briefly.<|end|><|user|>Question:", parsingSpecialTokens: true)
        #expect(statistics.cachedPromptTokens == shared.count)
    }

    @Test func sessionFromATranscriptContinuesIt() async throws {
        let model = ScriptedModel(replies: ["Answer", "More"])
        let first = session(model)
        try await first.respond(to: "Question")
        let data = try JSONEncoder().encode(first.transcript)
        let decoded = try JSONDecoder().decode(Transcript.self, from: data)
        #expect(decoded == first.transcript)
        let second = LanguageModelSession(model: SystemLanguageModel(backend: model), transcript: decoded)
        let response = try await second.respond(to: "Go on")
        #expect(response.content == "More")
        #expect(second.transcript.count == 5)
    }

    @Test func greedyIsDeterministicAndSeedsRepeat() async throws {
        // The model writes noise: a run may fill the budget, and then fails the same way again.
        func run(_ sampling: GenerationOptions.SamplingMode) async throws -> String {
            do {
                return try await session(ScriptedModel()).respond(
                    to: "Anything", generating: Pet.self, options: GenerationOptions(sampling: sampling, temperature: 1, maximumResponseTokens: 300)
                ).rawContent.jsonString
            } catch LanguageModelSession.GenerationError.decodingFailure(let context) {
                return context.debugDescription
            }
        }
        #expect(try await run(.greedy) == run(.greedy))
        #expect(try await run(.random(top: 20, seed: 7)) == run(.random(top: 20, seed: 7)))
        #expect(try await run(.random(probabilityThreshold: 0.9, seed: 7)) == run(.random(probabilityThreshold: 0.9, seed: 7)))
        var outputs = Set<String>()
        for seed in 1...4 as ClosedRange<UInt64> { outputs.insert(try await run(.random(top: 50, seed: seed))) }
        #expect(outputs.count > 1)
    }
}

/// A long scripted reply: pseudo-random letters, since the sequence penalty breaks a repeated
/// run such as `aaaa` within a few tokens.
func lettersWithoutRepeats(_ count: Int) -> String {
    var seed: UInt32 = 1
    return String((0..<count).map { _ in
        seed = seed &* 1_103_515_245 &+ 12345
        return Character(UnicodeScalar(UInt8(ascii: "a") + UInt8((seed >> 16) % 26)))
    })
}

@Suite struct SessionErrorTests {
    @Test func secondRequestOnABusySessionIsRefused() async throws {
        let session = session(ScriptedModel(replies: [lettersWithoutRepeats(200)], delay: 0.002))
        let stream = session.streamResponse(to: "Long")
        #expect(session.isResponding)
        await #expect {
            try await session.respond(to: "Again")
        } throws: { error in
            guard case LanguageModelSession.GenerationError.concurrentRequests = error else { return false }
            return true
        }
        _ = try await stream.collect()
        #expect(!session.isResponding)
    }

    @Test func freeTextEndsWhenTheContextFills() async throws {
        // A reply longer than the context: the text ends where the context is full, flagged.
        let letters = lettersWithoutRepeats(400)
        let long = session(ScriptedModel(replies: [letters], contextSize: 128))
        let cut = try await long.respond(to: "Hi", options: GenerationOptions(sampling: .greedy))
        #expect(letters.hasPrefix(cut.content) && cut.content.count > 50)
        #expect(cut.content.count < 400)
        #expect(long.statistics?.isTruncated == true)
        // The budget cuts it short as well; a reply the model ends is not flagged.
        let budgeted = session(ScriptedModel(replies: [letters], contextSize: 1024))
        _ = try await budgeted.respond(to: "Hi", options: GenerationOptions(maximumResponseTokens: 20))
        #expect(budgeted.statistics?.isTruncated == true)
        let short = session(ScriptedModel(replies: ["Hello there."]))
        #expect(try await short.respond(to: "Hi").content == "Hello there.")
        #expect(short.statistics?.isTruncated == false)
    }

    @Test func promptLargerThanTheContext() async throws {
        let session = session(ScriptedModel(contextSize: 64))
        await #expect {
            try await session.respond(to: String(repeating: "word ", count: 40))
        } throws: { error in
            guard case LanguageModelSession.GenerationError.exceededContextWindowSize(let context) = error else { return false }
            return context.debugDescription.contains("the context holds 64")
        }
        // The response budget counts too.
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "Hi", options: GenerationOptions(maximumResponseTokens: 60))
        }
        #expect(session.transcript.count == 1)
    }

    /// A prompt longer than the context could hold whatever its tokens is refused before it is
    /// tokenized: no token of the scripted vocabulary is longer than 13 bytes.
    @Test func promptTooLongForAnyTokenizationIsRefusedBeforeTokenizing() async throws {
        let model = ScriptedModel(contextSize: 64)
        let session = session(model)
        await #expect {
            try await session.respond(to: String(repeating: "a", count: 64 * 13 + 1))
        } throws: { error in
            guard case LanguageModelSession.GenerationError.exceededContextWindowSize(let context) = error else { return false }
            return context.debugDescription.contains("no token is longer than 13 bytes")
        }
        #expect(model.tokenizedByteCount < 64 * 13)
    }

    @Test func budgetTooSmallForTheTypeIsADecodingFailure() async throws {
        let session = session(ScriptedModel(replies: [#"{"name":"Rex","age":3,"tags":[]}"#]))
        await #expect {
            try await session.respond(to: "A pet", generating: Pet.self, options: GenerationOptions(maximumResponseTokens: 11))
        } throws: { error in
            guard case LanguageModelSession.GenerationError.decodingFailure(let context) = error else { return false }
            return context.debugDescription.contains("property \"name\"")
        }
        // Nothing of the failed request stays in the transcript.
        #expect(session.transcript.count == 1)
    }

    @Test func unloadableModel() async throws {
        let model = SystemLanguageModel(backend: ScriptedModel(availability: .unavailable(.modelNotReady), failsToLoad: true))
        #expect(model.availability == .unavailable(.modelNotReady))
        #expect(!model.isAvailable)
        await #expect {
            try await LanguageModelSession(model: model).respond(to: "Hi")
        } throws: { error in
            guard let error = error as? LanguageModelSession.GenerationError, case .assetsUnavailable = error else { return false }
            return error.errorDescription != nil && error.recoverySuggestion != nil
        }
    }

    @Test func cancellingTheTaskStopsGeneration() async throws {
        let model = ScriptedModel(replies: [lettersWithoutRepeats(5000)], contextSize: 8000, delay: 0.005)
        let session = session(model)
        let task = Task { try await session.respond(to: "Long") }
        while model.evaluatedTokenCount < 50 { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!session.isResponding)
        #expect(model.evaluatedTokenCount < 4000)
        #expect(session.transcript.count == 1)
    }

    @Test func leavingAStreamEarlyStopsGeneration() async throws {
        let model = ScriptedModel(replies: [lettersWithoutRepeats(5000)], contextSize: 8000, delay: 0.005)
        let session = session(model)
        for try await snapshot in session.streamResponse(to: "Long") where snapshot.content.count > 10 { break }
        while session.isResponding { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(model.evaluatedTokenCount < 4000)
    }
}

@Suite struct SystemLanguageModelTests {
    @Test func contextAndTokenCounts() async throws {
        let model = SystemLanguageModel(backend: ScriptedModel(contextSize: 777))
        #expect(model.contextSize == 777)
        #expect(model.isAvailable)
        #expect(try await model.tokenCount(for: "hello") == 5)
        #expect(try await model.tokenCount(for: Instructions("be kind")) == 7)
        #expect(try await model.tokenCount(for: Pet.generationSchema) > 20)
        let entries = [Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "hi"))]))]
        // <|user|> h i <|end|> <|assistant|>
        #expect(try await model.tokenCount(for: entries) == 5)
        #expect(model.supportsLocale(Locale(identifier: "en_US")))
        #expect(SystemLanguageModel(useCase: .contentTagging).useCase == .contentTagging)
    }

    @Test func errorTextsAreReadable() {
        let errors: [LanguageModelSession.GenerationError] = [
            .exceededContextWindowSize(.init(debugDescription: "a")), .assetsUnavailable(.init(debugDescription: "b")),
            .guardrailViolation(.init(debugDescription: "c")), .unsupportedGuide(.init(debugDescription: "d")),
            .unsupportedLanguageOrLocale(.init(debugDescription: "e")), .decodingFailure(.init(debugDescription: "f")),
            .rateLimited(.init(debugDescription: "g")), .concurrentRequests(.init(debugDescription: "h")),
            .refusal(.init(transcriptEntries: []), .init(debugDescription: "i")),
        ]
        #expect(Set(errors.compactMap(\.errorDescription)).count == 9)
        #expect(errors.map(\.failureReason) == ["a", "b", "c", "d", "e", "f", "g", "h", "i"])
    }
}
