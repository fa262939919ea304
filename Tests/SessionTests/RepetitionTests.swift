import Foundation
@testable import GuidedGeneration
import Testing

/// Loops end where the grammar allows: a repeated array element is dropped and the array
/// closed; a run of words that comes back a third time is found where it first came back (in a
/// session the sequence penalty rarely lets a verbatim loop get that far).
@Suite struct RepetitionTests {
    static let steps = #"{"type":"object","properties":{"steps":{"type":"array","items":{"type":"string"}"#
    static let greedy = GenerationOptions(sampling: .greedy)

    @Test func aRepeatedElementEndsTheArray() async throws {
        let schema = try GenerationSchema(jsonSchema: Self.steps + #"}},"required":["steps"]}"#)
        let reply = #"{"steps":["Mix the flour","stir","mix the  flour ","bake"]}"#
        let response = try await session(ScriptedModel(replies: [reply])).respond(to: "Steps", schema: schema, options: Self.greedy)
        #expect(response.content.jsonString == #"{"steps":["Mix the flour","stir"]}"#)
    }

    @Test func aRepeatStaysWhenTheArrayMayNotEndThere() async throws {
        let schema = try GenerationSchema(jsonSchema: Self.steps + #","minItems":4}},"required":["steps"]}"#)
        let reply = #"{"steps":["mix","stir","mix","bake"]}"#
        let response = try await session(ScriptedModel(replies: [reply])).respond(to: "Steps", schema: schema, options: Self.greedy)
        #expect(response.content.jsonString == reply)
    }

    @Test func aLoopInAStringIsFoundWhereItCameBack() {
        var watch = RepetitionWatch(json: true)
        let text = Array(#"{"text":"one two three four, one two three four, one two three four,"#.utf8)
        let finding = watch.read(text)
        #expect(finding == .loop(keep: Array(#"{"text":"one two three four, "#.utf8).count))
    }

    @Test func memberNamesAndShortRepeatsAreNotLoops() {
        var watch = RepetitionWatch(json: true)
        let text = #"{"a b c d":"a b c d","x":["a b c d a b c d", "one, two", "One,  two"]}"#
        #expect(watch.read(Array(text.utf8)) == .repeatedElement(keep: Array(#"{"a b c d":"a b c d","x":["a b c d a b c d", "one, two""#.utf8).count))
    }

    @Test func aLoopInFreeTextIsARunOfSixWords() {
        var watch = RepetitionWatch(json: false)
        #expect(watch.read(Array("the cat sat on a mat, the cat sat on a mat, the cat sat on a".utf8)) == nil)
        #expect(watch.read(Array("the cat sat on a mat, the cat sat on a mat, the cat sat on a mat.".utf8)) == .loop(keep: 22))
    }

    @Test func theWatchKnowsStringValuesAndNestedArraysOfOneName() {
        var watch = RepetitionWatch(json: true)
        _ = watch.read(Array(#"{"text":"ab"#.utf8))
        #expect(watch.isInStringValue)
        _ = watch.read(Array(#"{"text":"ab","replies":[{"replies":["#.utf8))
        #expect(!watch.isInStringValue)
        #expect(watch.arrayDepth == 2)
        #expect(watch.isInNestedArrayOfSameName)
    }
}

/// The embedded engine's executor streams only the text that no later step takes back: a
/// repeated array element that the loop watch will drop is never sent.
@Suite struct SettledStreamingTests {
    @Test func theExecutorNeverSendsWhatItLaterCuts() async throws {
        let schema = try GenerationSchema(jsonSchema: RepetitionTests.steps + #"}},"required":["steps"]}"#)
        let reply = #"{"steps":["Mix the flour","stir","mix the  flour ","bake"]}"#
        let model = SystemLanguageModel(backend: ScriptedModel(replies: [reply]))
        let executor = SystemLanguageModel.Executor(configuration: model.executorConfiguration)
        let request = LanguageModelExecutorGenerationRequest(
            id: UUID(), transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Steps"))]))]),
            enabledTools: [], schema: schema, generationOptions: RepetitionTests.greedy, contextOptions: ContextOptions(), metadata: [:])
        let channel = LanguageModelExecutorGenerationChannel()
        let producer = Task {
            do {
                try await executor.respond(to: request, model: model, streamingInto: channel)
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        var deltas: [String] = []
        for try await event in channel {
            if case .response(let response) = event.kind, case .appendText(let fragment) = response.action.storage { deltas.append(fragment.content) }
        }
        _ = await producer.result
        #expect(deltas.joined() == #"{"steps":["Mix the flour","stir"]}"#)
        #expect(deltas.count > 2, "the text is sent as it settles, not once at the end")
        #expect(!deltas.joined().contains("mix the"))
    }
}
