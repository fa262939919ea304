import Testing

@testable import GuidedGeneration

/// Which setting wins where the sampling mode, the options' temperature and the sampling chain's
/// settings say different things: `.greedy` always; then the mode and the temperature; the
/// settings only where the options leave the choice to the engine.
@Suite struct SamplingPrecedenceTests {
    let model = ScriptedModel()

    @Test func greedyIsAlwaysGreedy() {
        var options = GenerationOptions(sampling: .greedy, temperature: 0.9)
        options.samplingSettings = SamplingSettings(temperature: 1.3, topK: 40, topP: 0.8)
        #expect(ResponseGenerator.settings(of: options, model: model).isGreedy)
    }

    @Test func theModeAndTemperatureHoldOverTheSettings() {
        var options = GenerationOptions(sampling: .random(probabilityThreshold: 0.5, seed: 1), temperature: 0.4)
        options.samplingSettings = SamplingSettings(temperature: 1.3, topP: 0.8, minP: 0.05)
        let settings = ResponseGenerator.settings(of: options, model: model)
        #expect(settings.temperature == 0.4)
        #expect(settings.topP == 0.5)
        #expect(settings.minP == 0.05)
        options.sampling = .random(top: 3, seed: 1)
        #expect(ResponseGenerator.settings(of: options, model: model).topK == 3)
    }

    @Test func theSettingsFillInWhatTheOptionsLeave() {
        var options = GenerationOptions()
        options.samplingSettings = SamplingSettings(temperature: 1.3, topK: 20)
        let settings = ResponseGenerator.settings(of: options, model: model)
        #expect(settings.temperature == 1.3)
        #expect(settings.topK == 20)
        #expect(settings.topP == ResponseGenerator.probabilityThreshold)
        options.samplingSettings = nil
        let defaults = ResponseGenerator.settings(of: options, model: model)
        #expect(defaults.temperature == ResponseGenerator.temperature)
        #expect(defaults.topP == ResponseGenerator.probabilityThreshold)
        #expect(!defaults.isGreedy)
    }
}
