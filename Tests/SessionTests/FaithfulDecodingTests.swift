import Foundation
@testable import GuidedGeneration
import Testing

/// The grammar masks and the model chooses: a model that prefers each byte of an answer by a
/// small margin (1 logit above the noise) gets that answer back byte for byte, whatever it holds,
/// and nothing it wrote is cut. A preset acts only where it is asked to, and never inside a
/// value the schema spells out.
@Suite struct FaithfulDecodingTests {
    static let greedy = GenerationOptions(sampling: .greedy)
    static let value = #"{"type":"object","properties":{"value":{"type":"string"}},"required":["value"],"additionalProperties":false}"#

    static func respond(_ reply: String, schema: String, margin: Float = 1, options: GenerationOptions = greedy) async throws -> String {
        let session = LanguageModelSession(model: SystemLanguageModel(backend: ScriptedModel(replies: [reply], margin: margin)))
        return try await session.respond(to: "Answer", schema: try GenerationSchema(jsonSchema: schema), options: options).content.jsonString
    }

    /// Values of the kinds small-model nudges used to push away: underscores, addresses, camel
    /// case, capitals inside words, angle brackets, constants, long compounds, other scripts,
    /// empty strings.
    @Test(arguments: [
        "alice_smith", "https://example.com/docs//v2?q=1", "maxRetryCount", "iPhone", "Array<Int>", "OPENAI_API_KEY", "王小明",
        "Donaudampfschifffahrtsgesellschaftskapitän", "", "{curly} [square] | pipe", "the the the the the the the the",
    ])
    func aValueComesBackAsTheModelWroteIt(text: String) async throws {
        let reply = #"{"value":"\#(text)"}"#
        #expect(try await Self.respond(reply, schema: Self.value) == reply)
    }

    @Test func repeatedElementsStay() async throws {
        let numbers = #"{"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}},"required":["n"],"additionalProperties":false}"#
        #expect(try await Self.respond(#"{"n":[3,3,5]}"#, schema: numbers) == #"{"n":[3,3,5]}"#)
        let steps = #"{"type":"object","properties":{"s":{"type":"array","items":{"type":"string"}}},"required":["s"],"additionalProperties":false}"#
        let reply = #"{"s":["mix","stir","mix","bake","mix"]}"#
        #expect(try await Self.respond(reply, schema: steps) == reply)
        #expect(try await Self.respond(#"{"s":[]}"#, schema: steps) == #"{"s":[]}"#)
    }

    /// The small-model preset's DRY penalty ends a long repeat in a free string, but a `pattern`
    /// value that repeats is the schema's, and the preset leaves it alone.
    @Test func thePresetActsInFreeTextOnly() async throws {
        var options = Self.greedy
        options.samplingPreset = .smallModel
        let repeated = "abababababababab"
        let free = #"{"type":"object","properties":{"v":{"type":"string"}},"required":["v"],"additionalProperties":false}"#
        let patterned = #"{"type":"object","properties":{"v":{"type":"string","pattern":"^(ab)+$"}},"required":["v"],"additionalProperties":false}"#
        let reply = #"{"v":"\#(repeated)"}"#
        #expect(try await Self.respond(reply, schema: free, margin: 1.5) == reply, "without the preset the model's answer stands")
        #expect(try await Self.respond(reply, schema: free, margin: 1.5, options: options) != reply, "the preset's DRY breaks the loop")
        #expect(try await Self.respond(reply, schema: patterned, margin: 1.5, options: options) == reply)
    }

    /// A stage set in the options acts everywhere: a logit bias against a letter keeps it out of
    /// the answer where the grammar lets the model go around it.
    @Test func aLogitBiasActsWhereverItIsSet() async throws {
        var options = Self.greedy
        options.samplingSettings = SamplingSettings(logitBias: [Int32(UInt8(ascii: "b")): -100])
        let answer = try await Self.respond(#"{"value":"abc"}"#, schema: Self.value, options: options)
        #expect(!answer.dropFirst(10).contains("b"), "\(answer)")
    }
}

/// The embedded engine's executor streams the text as it is written, repeats and all.
@Suite struct SettledStreamingTests {
    @Test func theExecutorStreamsTheTextAsItIsWritten() async throws {
        let schema = try GenerationSchema(
            jsonSchema: #"{"type":"object","properties":{"steps":{"type":"array","items":{"type":"string"}}},"required":["steps"]}"#)
        let reply = #"{"steps":["Mix the flour","stir","mix the  flour ","bake"]}"#
        let model = SystemLanguageModel(backend: ScriptedModel(replies: [reply]))
        let executor = SystemLanguageModel.Executor(configuration: model.executorConfiguration)
        let request = LanguageModelExecutorGenerationRequest(
            id: UUID(), transcript: Transcript(entries: [.prompt(Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Steps"))]))]),
            enabledTools: [], schema: schema, generationOptions: FaithfulDecodingTests.greedy, contextOptions: ContextOptions(), metadata: [:])
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
        #expect(deltas.joined() == reply)
        #expect(deltas.count > 2, "the text is sent as it is written, not once at the end")
    }
}
