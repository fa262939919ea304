import Foundation
import GuidedGeneration
import Synchronization
import Testing

/// Holds the session a model's executor reaches for while it answers, and whether it sets the
/// session's transcript (else it only answers).
final class SessionBox: Sendable {
    let session = Mutex<LanguageModelSession?>(nil)
    let mutates = Mutex(true)
}

/// A model whose executor sets its session's transcript while answering, as an app must not.
struct MutatingModel: LanguageModel {
    typealias Executor = MutatingExecutor

    let box = SessionBox()

    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([]) }
    var executorConfiguration: Executor.Configuration { Executor.Configuration() }
}

struct MutatingExecutor: LanguageModelExecutor {
    typealias Model = MutatingModel
    struct Configuration: Hashable, Sendable {}

    init(configuration: Configuration) throws {}

    func respond(to request: LanguageModelExecutorGenerationRequest, model: MutatingModel, streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
        await channel.send(.response(action: .appendText("Half an ans", tokenCount: 1)))
        if model.box.mutates.withLock({ $0 }), let session = model.box.session.withLock({ $0 }) {
            #expect(session.isResponding)
            session.transcript = Transcript(entries: [])
        }
        await channel.send(.response(action: .appendText("wer.", tokenCount: 1)))
    }
}

/// The transcript cannot change while the session responds: the value set is dropped and the
/// request fails with `LanguageModelSession.Error.transcriptMutationWhileResponding`.
@Suite struct TranscriptMutationTests {
    @Test func settingTheTranscriptWhileRespondingFailsTheRequest() async throws {
        let model = MutatingModel()
        let session = LanguageModelSession(model: model, instructions: Instructions("Answer."))
        model.box.session.withLock { $0 = session }
        await #expect(throws: LanguageModelSession.Error.transcriptMutationWhileResponding) {
            try await session.respond(to: "A question.")
        }
        #expect(!session.isResponding)
        #expect(session.transcript.count == 1, "back to the instructions alone: neither the request's entries nor the value set stay")
        // Between requests the transcript can be set, and the next request runs.
        model.box.mutates.withLock { $0 = false }
        session.transcript = Transcript(entries: [])
        #expect(session.transcript.isEmpty)
        let response = try await session.respond(to: "Another question.")
        #expect(response.content == "Half an answer.")
        #expect(session.transcript.count == 2)
    }

    @Test func aStreamFailsTooAndThePolicyKeepsWhatTheRequestAdded() async throws {
        let model = MutatingModel()
        let session = LanguageModelSession(model: model)
        session.transcriptErrorHandlingPolicy = .preserveTranscript
        model.box.session.withLock { $0 = session }
        await #expect(throws: LanguageModelSession.Error.transcriptMutationWhileResponding) {
            for try await _ in session.streamResponse(to: "A question.") {}
        }
        let kinds = session.transcript.map { entry -> String in if case .prompt = entry { "prompt" } else { "other" } }
        #expect(kinds == ["prompt"], "the prompt the request added stays; the empty transcript set is dropped")
    }
}
