import Testing

@testable import GuidedGeneration

/// Dynamic profiles come to the instructions, tools and settings their body gives at the moment
/// they are resolved; the modifier nearest the profile wins, transforms and hooks all count.
@Suite struct DynamicProfileTests {
    enum Mode { case chat, expert }

    struct Assistant: LanguageModelSession.DynamicProfile {
        var mode: Mode

        var body: some DynamicProfile {
            switch mode {
            case .chat:
                Profile {
                    Instructions("Chat briefly.")
                }
                .temperature(0.9)
            case .expert:
                Profile {
                    Instructions("Answer as an expert.")
                    WeatherTool()
                }
                .temperature(0.2)
                .maximumResponseTokens(300)
            }
        }
    }

    /// Keeps the last entries of the history sent to the model, as Apple's rolling window does.
    struct LastEntries: LanguageModelSession.DynamicProfileModifier {
        let count: Int

        func body(content: Content) -> some DynamicProfile {
            content.historyTransform { Array($0.suffix(count)) }
        }
    }

    @Test func theBodyChoosesTheProfileOfTheMoment() {
        let chat = Assistant(mode: .chat).resolvedProfile
        #expect(chat.instructions?.instructions.description == "Chat briefly.")
        #expect(chat.temperature == 0.9)
        #expect(chat.maximumResponseTokens == nil)
        #expect(chat.instructions?.tools.isEmpty == true)
        let expert = Assistant(mode: .expert).resolvedProfile
        #expect(expert.instructions?.instructions.description == "Answer as an expert.")
        #expect(expert.instructions?.tools.map(\.name) == ["getWeather"])
        #expect(expert.temperature == 0.2)
        #expect(expert.maximumResponseTokens == 300)
    }

    @Test func theModifierNearestTheProfileWins() {
        let profile = Assistant(mode: .chat).temperature(0.1).maximumResponseTokens(50).resolvedProfile
        #expect(profile.temperature == 0.9)
        #expect(profile.maximumResponseTokens == 50)
        var options = GenerationOptions()
        options.maximumResponseTokens = 20
        let merged = profile.options(over: options)
        #expect(merged.maximumResponseTokens == 20, "the request's own setting holds")
        #expect(merged.temperature == 0.9)
    }

    @Test func aModifierOfItsOwnTransformsTheHistory() {
        let profile = Assistant(mode: .chat).modifier(LastEntries(count: 2)).historyTransform { $0.dropLast(0) }.resolvedProfile
        #expect(profile.historyTransforms.count == 2)
        let entries = (0..<5).map { Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "\($0)"))])) }
        #expect(profile.history(entries).map(\.description) == ["(Prompt) 3", "(Prompt) 4"])
    }

    @Test func hooksAccumulate() {
        let profile = LanguageModelSession.Profile { Instructions("Hi.") }
            .onPrompt {}
            .onResponse {}
            .onPrompt {}
            .resolvedProfile
        #expect(profile.hooks.onPrompt.count == 2)
        #expect(profile.hooks.onResponse.count == 1)
        #expect(LanguageModelSession.EmptyDynamicProfile().resolvedProfile.instructions == nil)
    }
}
