import GuidedGeneration
import Testing
import TestSupport

@Generable
enum Leg: String, CaseIterable {
    case walk
    case walkAndTrain
    case train
}

@Generable
struct Stop: Equatable {
    var leg: Leg
    var legs: [Leg]
    var note: String?
    var minutes: Int
}

@Generable
struct Route: Equatable {
    var name: String
    var stops: [Stop]
    var last: Leg?
}

/// Streaming a value whose model writes it token by token (one byte a token, the scripted
/// model's way): every snapshot converts, each only adds to the one before, and the last is the
/// value; with tools too, where the answer is a part of the turn.
@Suite struct StreamedSnapshotTests {
    static let routes = [
        Route(
            name: "Han \"river\" 한강 😀",
            stops: [
                Stop(leg: .walkAndTrain, legs: [.walk, .walkAndTrain], note: nil, minutes: 12),
                Stop(leg: .walk, legs: [], note: "e\u{301}\\n", minutes: 3),
            ], last: .walk),
        Route(name: "", stops: [Stop(leg: .train, legs: [.train, .walk, .walkAndTrain], note: "x", minutes: 0)], last: nil),
    ]

    @Test(arguments: [false, true])
    func everySnapshotConverts(withTools: Bool) async throws {
        for route in Self.routes {
            let json = route.generatedContent.jsonString
            let session =
                withTools
                ? toolSession(ScriptedModel(replies: [answer(json)], contextSize: 4096), tools: [WeatherTool()])
                : session(ScriptedModel(replies: [json], contextSize: 4096))
            var snapshots: [LanguageModelSession.ResponseStream<Route>.Snapshot] = []
            for try await snapshot in session.streamResponse(to: "A route", generating: Route.self, options: GenerationOptions(sampling: .greedy)) {
                snapshots.append(snapshot)
            }
            #expect(snapshots.count > 20, "\(snapshots.count) snapshots of \(json)")
            for (previous, next) in zip(snapshots, snapshots.dropFirst()) {
                if let failure = growthFailure(from: previous.content, to: next.content) { Issue.record("\(next.rawContent.jsonString): \(failure)") }
                if let failure = growthFailure(from: previous.rawContent, to: next.rawContent) { Issue.record("\(next.rawContent.jsonString): \(failure)") }
            }
            #expect(snapshots.last?.rawContent.isComplete == true)
            #expect(try snapshots.last.map { try Route($0.rawContent) } == route)
        }
    }
}
