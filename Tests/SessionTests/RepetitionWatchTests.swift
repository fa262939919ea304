@testable import GuidedGeneration
import Testing
import TestSupport

/// A structured answer that loops is reported as soon as the loop is plain, with what it
/// repeats; answers that do not loop are left alone.
@Suite struct RepetitionWatchTests {
    /// Feeds tokens to a watch; returns the first loop it reports and after how many tokens.
    private func firstLoop(_ tokens: [Int32]) -> (loop: RepetitionWatch.Loop, at: Int)? {
        var watch = RepetitionWatch()
        for (index, token) in tokens.enumerated() {
            if let loop = watch.append(token) { return (loop, index + 1) }
        }
        return nil
    }

    @Test func aUnitRepeatedBackToBackIsReportedOnceItSpansEnough() throws {
        let unit: [Int32] = [5, 9, 2, 7, 7, 1, 3, 8, 4, 6, 10, 11]
        let prefix: [Int32] = Array(100..<140)
        let found = try #require(firstLoop(prefix + Array(repeating: unit, count: 40).joined()))
        #expect(found.loop.span == RepetitionWatch.minimumSpan)
        #expect(found.at == prefix.count + RepetitionWatch.minimumSpan)
        // The unit as the loop last wrote it: a rotation of the one written.
        #expect(found.loop.unit.count == unit.count)
        #expect(Set(found.loop.unit) == Set(unit))
        // One token repeated is a unit too.
        #expect(firstLoop(Array(repeating: 3, count: 400))?.loop.unit == [3])
    }

    @Test func whatDoesNotLoopIsNotReported() {
        // Every token differs, or the repeats are too few or too short, or broken before they span enough.
        var random = SeededGenerator(seed: 69)
        #expect(firstLoop((0..<3000).map { _ in Int32.random(in: 0..<50, using: &random) }) == nil)
        let long = Array(Int32(0)..<Int32(RepetitionWatch.maximumPeriod + 20))
        #expect(firstLoop(Array(repeating: long, count: 3).joined() + [-1]) == nil)
        let broken = (0..<30).flatMap { index -> [Int32] in [1, 2, 3, 4, 5, 6, 7, 8] + (index % 3 == 0 ? [Int32(1000 + index)] : []) }
        #expect(firstLoop(broken) == nil)
    }

    @Test func aLoopingAnswerFailsEarlyWithWhatItRepeats() async throws {
        let reply = #"{"name":""# + String(repeating: "Tom and Rex. ", count: 120)
        let session = session(ScriptedModel(replies: [reply], contextSize: 4096))
        do {
            _ = try await session.respond(to: "A pet", generating: Pet.self, options: GenerationOptions(sampling: .greedy))
            Issue.record("the looping answer was not reported")
        } catch LanguageModelSession.GenerationError.decodingFailure(let context) {
            #expect(context.debugDescription.contains("repeating itself"), "\(context.debugDescription)")
            #expect(context.debugDescription.contains("Rex") && context.debugDescription.contains("times in a row"), "\(context.debugDescription)")
            #expect(context.debugDescription.contains(#"in property "name""#), "\(context.debugDescription)")
        }
        #expect(try #require(session.statistics).responseTokens < 300)
    }

    @Test func aLongAnswerThatDoesNotLoopCompletes() async throws {
        let name = (0..<400).map { String($0) }.joined(separator: " ")
        let reply = #"{"name":""# + name + #"","age":3,"tags":["a","a","a"]}"#
        let session = session(ScriptedModel(replies: [reply], contextSize: 4096))
        let response = try await session.respond(to: "A pet", generating: Pet.self, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 3000))
        #expect(response.content.name == name)
    }
}
