import Foundation
import GuidedGeneration
import Testing

/// A model's refusal and its explanation, whole and streamed, as `LanguageModelError.Refusal`
/// (FoundationModels 27) and as `GenerationError.Refusal` (26) give them.
@Suite struct RefusalTests {
    let reason = "I cannot help with that request."

    @Test func aRefusalExplainsItselfWholeAndStreamed() async throws {
        let refusal = LanguageModelError.Refusal(explanation: reason, debugDescription: "The model refused.")
        let explanation = try await refusal.explanation
        #expect(explanation.content == reason)
        #expect(explanation.rawContent == GeneratedContent(reason))
        guard case .response(let response) = explanation.transcriptEntries.first else {
            Issue.record("the explanation has no response entry")
            return
        }
        #expect(response.segments == [.text(Transcript.TextSegment(id: response.segments.first?.id ?? "", content: reason))])
        var snapshots: [String] = []
        for try await snapshot in refusal.explanationStream { snapshots.append(snapshot.content) }
        #expect(snapshots == [reason])
        #expect(try await refusal.explanationStream.collect().content == reason)
        #expect(refusal.metadata.isEmpty && refusal.debugDescription == "The model refused.")
    }

    @Test func anExecutorsRefusalReachesTheAppAsTheSessionsRefusal() async throws {
        let model = ReplayModel(turns: [.failure(.refusal(.init(explanation: reason, debugDescription: "refused", metadata: ["policy": "p1"])))])
        let session = LanguageModelSession(model: model)
        do {
            _ = try await session.respond(to: "Something I should not ask.")
            Issue.record("the request did not fail")
        } catch LanguageModelSession.GenerationError.refusal(let refusal, let context) {
            #expect(context.debugDescription == "refused")
            #expect(try await refusal.explanation.content == reason)
            var streamed = ""
            for try await snapshot in refusal.explanationStream { streamed = snapshot.content }
            #expect(streamed == reason)
        }
        #expect(session.transcript.isEmpty, "a refused request leaves the transcript as it was")
    }
}
