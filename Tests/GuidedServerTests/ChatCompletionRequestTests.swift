import GuidedGeneration
@testable import GuidedServer
import Testing

/// A request body's sampling fields, read as llama-server and OpenAI name them into the
/// options of the sampling chain; a bad value refused by name.
@Suite struct ChatCompletionRequestTests {
    static func request(_ fields: String) throws(ChatCompletionRequest.Invalid) -> ChatCompletionRequest {
        try ChatCompletionRequest(body: Array(#"{"messages":[{"role":"user","content":"Hi."}]\#(fields)}"#.utf8))
    }

    @Test func samplingFieldsSetTheirStagesAndNothingElse() throws {
        let plain = try Self.request("").generation.generationOptions
        #expect(plain.samplingSettings == nil && plain.samplingPreset == nil && plain.sampling == nil)

        let options = try Self.request(
            #","temperature":0.5,"top_k":40,"top_p":0.8,"seed":7,"min_p":0.05,"repeat_penalty":1.1,"repeat_last_n":32,"frequency_penalty":0.5,"presence_penalty":-0.5,"logit_bias":{"42":-100,"7":2.5},"dry_multiplier":0.8,"dry_base":2,"dry_allowed_length":3,"dry_sequence_breakers":["\n"],"preset":"faithful""#
        ).generation.generationOptions
        #expect(options.temperature == 0.5)
        #expect(options.sampling == .random(top: 40, seed: 7))
        let settings = try #require(options.samplingSettings)
        #expect(settings.topP == 0.8 && settings.minP == 0.05 && settings.repetitionPenalty == 1.1 && settings.penaltyWindow == 32)
        #expect(settings.frequencyPenalty == 0.5 && settings.presencePenalty == -0.5)
        #expect(settings.logitBias == [42: -100, 7: 2.5])
        #expect(settings.dry == DRYSettings(multiplier: 0.8, base: 2, allowedLength: 3, sequenceBreakers: ["\n"]))
        #expect(options.samplingPreset == .faithful)
        #expect(try Self.request(#","preset":"small-model""#).generation.generationOptions.samplingPreset == .smallModel)
    }

    @Test func badSamplingFieldsAreRefusedByName() {
        for (fields, parameter) in [
            (#","preset":"creative""#, "preset"), (#","preset":1"#, "preset"), (#","min_p":2"#, "min_p"),
            (#","repeat_penalty":"high""#, "repeat_penalty"), (#","logit_bias":{"word":1}"#, "logit_bias"), (#","top_k":1.5"#, "top_k"),
        ] {
            do {
                _ = try Self.request(fields)
                Issue.record("\(fields) was accepted")
            } catch {
                #expect(error.parameter == parameter, "\(fields): \(error.message)")
            }
        }
    }
}
