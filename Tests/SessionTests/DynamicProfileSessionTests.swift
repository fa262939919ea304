import Foundation
import Synchronization
import Testing

@testable import GuidedGeneration

/// Sessions made with a dynamic profile work it out again before every model request: the
/// model, instructions and tools of the moment, the history kept across switches, the hooks and
/// the session's values as Apple's documentation and its utilities package use them.
@Suite struct DynamicProfileSessionTests {
    /// The app's state a profile reads, changed between requests or by a tool.
    final class Mode: Sendable {
        let isExpert = Mutex(false)
    }

    struct Switching: LanguageModelSession.DynamicProfile {
        let mode: Mode
        let chat: ReplayModel
        let expert: ReplayModel

        var body: some DynamicProfile {
            if mode.isExpert.withLock({ $0 }) {
                Profile { Instructions("Answer as an expert.") }.model(expert)
            } else {
                Profile { Instructions("Chat briefly.") }.model(chat)
            }
        }
    }

    @Test func theModelAndInstructionsSwitchAndTheHistoryStays() async throws {
        let mode = Mode()
        let chat = ReplayModel(turns: [.text("Hello.")])
        let expert = ReplayModel(turns: [.text("Indeed.")])
        let session = LanguageModelSession(profile: Switching(mode: mode, chat: chat, expert: expert))
        #expect(session.transcript.first?.description == "(Instructions) Chat briefly.")
        _ = try await session.respond(to: "Hi")
        mode.isExpert.withLock { $0 = true }
        _ = try await session.respond(to: "Explain")
        let sent = try #require(expert.log.requests.withLock { $0.first })
        #expect(sent.transcript.map(\.description) == ["(Instructions) Answer as an expert.", "(Prompt) Hi", "(Response) Hello.", "(Prompt) Explain"])
        #expect(chat.log.requests.withLock { $0.count } == 1)
        #expect(session.transcript.map(\.description) == sent.transcript.map(\.description) + ["(Response) Indeed."])
    }

    /// Keeps the last entries, as Apple's `rollingWindow` does: `onPrompt` rewrites the history
    /// through the session's values.
    struct RollingWindow: LanguageModelSession.DynamicProfileModifier {
        @SessionProperty(\.history) private var history
        let size: Int

        func body(content: Content) -> some DynamicProfile {
            content.onPrompt { history = history.suffix(size) }
        }
    }

    @Test func onPromptRewritesTheHistoryThroughTheSessionsValues() async throws {
        let model = ReplayModel(turns: [.text("OK")])
        let profile = LanguageModelSession.Profile { Instructions("Be brief.") }.modifier(RollingWindow(size: 3)).model(model)
        let session = LanguageModelSession(profile: profile)
        for prompt in ["first", "second", "third"] { _ = try await session.respond(to: prompt) }
        #expect(session.transcript.map(\.description) == ["(Instructions) Be brief.", "(Prompt) second", "(Response) OK", "(Prompt) third", "(Response) OK"])
        #expect(LanguageModelSession.SessionProperty(\.history).wrappedValue.isEmpty, "outside a request no session is bound")
    }

    @Test func aHistoryTransformChangesWhatIsSentNotTheTranscript() async throws {
        let model = ReplayModel(turns: [.text("OK")])
        let profile = LanguageModelSession.Profile { Instructions("Be brief.") }.historyTransform { Array($0.suffix(1)) }.model(model)
        let session = LanguageModelSession(profile: profile)
        _ = try await session.respond(to: "first")
        _ = try await session.respond(to: "second")
        let sent = try #require(model.log.requests.withLock { $0.last })
        #expect(sent.transcript.map(\.description) == ["(Instructions) Be brief.", "(Prompt) second"])
        #expect(session.transcript.count == 5)
    }

    @Test func theErrorPolicyDecidesWhatAFailedRequestLeaves() async throws {
        let failure = LanguageModelError.unsupportedCapability(.init(capability: .vision, debugDescription: "no"))
        for (policy, kept) in [(TranscriptErrorHandlingPolicy.revertTranscript, 1), (.preserveTranscript, 2)] {
            let model = ReplayModel(turns: [.failure(failure)])
            let session = LanguageModelSession(profile: LanguageModelSession.Profile { Instructions("Be brief.") }.transcriptErrorHandlingPolicy(policy).model(model))
            await #expect(throws: (any Error).self) { try await session.respond(to: "first") }
            #expect(session.transcript.count == kept)
            #expect(!session.isResponding)
        }
    }

    /// A tool that turns the expert mode on: the "baton pass" of Apple's sessions.
    struct BecomeExpert: Tool {
        let mode: Mode
        let name = "become_expert"
        let description = "Switches to the expert."

        @Generable struct Arguments {}

        func call(arguments: Arguments) async throws -> String {
            mode.isExpert.withLock { $0 = true }
            return "switched"
        }
    }

    struct Baton: LanguageModelSession.DynamicProfile {
        let mode: Mode
        let model: ReplayModel
        let events: Events

        var body: some DynamicProfile {
            if mode.isExpert.withLock({ $0 }) {
                Profile { Instructions("Answer as an expert.") }
                    .onActivate { events.list.withLock { $0.append("expert on") } }
                    .model(model)
            } else {
                Profile {
                    Instructions("Chat, or hand over.")
                    BecomeExpert(mode: mode)
                }
                .onDeactivate { events.list.withLock { $0.append("chat off") } }
                .onToolCall { call in events.list.withLock { $0.append("call \(call.toolName)") } }
                .onToolOutput { events.list.withLock { $0.append("output") } }
                .onResponse { events.list.withLock { $0.append("response") } }
                .model(model)
            }
        }
    }

    final class Events: Sendable {
        let list = Mutex<[String]>([])
    }

    @Test func aToolSwitchesTheProfileWithinARequest() async throws {
        let mode = Mode()
        let events = Events()
        let model = ReplayModel(turns: [.calls([(name: "become_expert", arguments: "{}")]), .text("As an expert: yes.")])
        let session = LanguageModelSession(profile: Baton(mode: mode, model: model, events: events))
        let response = try await session.respond(to: "Help")
        #expect(response.content == "As an expert: yes.")
        let requests = model.log.requests.withLock { $0 }
        #expect(requests.map { $0.enabledToolDefinitions.map(\.name) } == [["become_expert"], []])
        #expect(requests.last?.transcript.first?.description == "(Instructions) Answer as an expert.")
        #expect(session.transcript.first?.description == "(Instructions) Answer as an expert.")
        #expect(events.list.withLock { $0 } == ["call become_expert", "output", "chat off", "expert on"])
    }

    @Test func dynamicInstructionsOnTheirOwnMakeAProfile() async throws {
        let model = ReplayModel(turns: [.text("OK")])
        let session = LanguageModelSession(model: model, dynamicInstructions: Instructions("Be brief."), history: [
            .prompt(Transcript.Prompt(segments: [.text(.init(content: "earlier"))]))
        ])
        _ = try await session.respond(to: "now")
        #expect(session.transcript.map(\.description) == ["(Instructions) Be brief.", "(Prompt) earlier", "(Prompt) now", "(Response) OK"])
    }

    struct Counting: LanguageModelSession.DynamicProfile {
        @SessionProperty(\.requestCount) var requestCount
        let model: ReplayModel

        var body: some DynamicProfile {
            Profile { Instructions("Request \(requestCount + 1).") }
                .onPrompt { requestCount += 1 }
                .model(model)
        }
    }

    struct Inferred: LanguageModelSession.DynamicProfile {
        @SessionProperty(\.promptCount) var promptCount
        @SessionProperty(\.warmth) var warmth
        @SessionProperty(\.isTerse) var isTerse
        @SessionProperty(\.tone) var tone
        @SessionProperty(\.seenTopics) var seenTopics
        @SessionProperty(\.topicVisits) var topicVisits
        let model: ReplayModel

        var body: some DynamicProfile {
            Profile { Instructions("Prompt \(promptCount + 1), \(tone), warmth \(warmth), terse \(isTerse).") }
                .onPrompt {
                    promptCount += 1
                    warmth += 0.25
                    isTerse.toggle()
                    tone += "!"
                    seenTopics.append("news")
                    topicVisits["news", default: 0] += 1
                }
                .model(model)
        }
    }

    /// Values declared with their type inferred from a literal start at it and are each
    /// session's own.
    @Test func valuesOfInferredTypesStartAtTheirLiterals() async throws {
        let model = ReplayModel(turns: [.text("OK")])
        let session = LanguageModelSession(profile: Inferred(model: model))
        #expect(session.properties.promptCount == 0 && session.properties.tone == "plain" && session.properties.isTerse)
        _ = try await session.respond(to: "a")
        _ = try await session.respond(to: "b")
        let values = session.properties
        #expect(values.promptCount == 2)
        #expect(values.warmth == 1.0)
        #expect(values.isTerse)
        #expect(values.tone == "plain!!")
        #expect(values.seenTopics == ["weather", "news", "news"])
        #expect(values.topicVisits == ["weather": 1, "news": 2])
        #expect(session.transcript.first?.description == "(Instructions) Prompt 2, plain!, warmth 0.75, terse false.")
        #expect(LanguageModelSession(profile: Inferred(model: model)).properties.promptCount == 0)
    }

    @Test func theAppsOwnValuesAreTheSessionsOwn() async throws {
        let model = ReplayModel(turns: [.text("OK")])
        let first = LanguageModelSession(profile: Counting(model: model))
        let second = LanguageModelSession(profile: Counting(model: model))
        _ = try await first.respond(to: "a")
        _ = try await first.respond(to: "b")
        _ = try await second.respond(to: "c")
        #expect(first.properties.requestCount == 2)
        #expect(second.properties.requestCount == 1)
        #expect(second.properties.lastTopic == nil)
        #expect(first.transcript.first?.description == "(Instructions) Request 2.", "the body read the count the hook wrote")
    }
}

extension SessionPropertyValues {
    @SessionPropertyEntry var requestCount: Int = 0
    @SessionPropertyEntry var lastTopic: String?
    // Types inferred from literals, as Apple's macro takes them.
    @SessionPropertyEntry var promptCount = 0
    @SessionPropertyEntry var warmth = 0.5
    @SessionPropertyEntry var isTerse = true
    @SessionPropertyEntry var tone = "plain"
    @SessionPropertyEntry var seenTopics = ["weather"]
    @SessionPropertyEntry var topicVisits = ["weather": 1]
}
