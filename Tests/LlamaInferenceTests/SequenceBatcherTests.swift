import Foundation
import Synchronization
import Testing
import TestSupport

@testable import LlamaInference

/// Continuous batching: sequences decoded together in one pass get the logits each gets alone,
/// bit for bit, whatever joins or leaves the pass, and whatever prompt runs beside them.
@Suite(.threadOfItsOwn) struct SequenceBatcherTests {
    /// Prompts of different lengths (one longer than a pass, so that it runs over several) and
    /// how many tokens each sequence then decodes greedily.
    static let prompts: [[Int32]] = [
        [1, 504, 3575, 314, 260, 1345],
        Array((0..<150).map { Int32(200 + $0 * 37 % 4000) }),
        [1, 9690, 28, 1402],
        [1, 504],
    ]
    static let steps = [12, 5, 20, 9]

    /// The logits after the prompt and after each greedy token, for one sequence alone.
    static func alone(_ model: LlamaModel, prompt: [Int32], steps: Int) throws -> [[Float]] {
        let session = InferenceSession(model: model, contextLength: 256)
        try session.evaluate(prompt)
        var logits = [Array(session.logits)]
        for _ in 0..<steps {
            try session.evaluate([greedy(session.logits)])
            logits.append(Array(session.logits))
        }
        return logits
    }

    static func greedy(_ logits: UnsafeMutableBufferPointer<Float>) -> Int32 {
        var best = 0
        for index in logits.indices where logits[index] > logits[best] { best = index }
        return Int32(best)
    }

    /// Every sequence on a thread of its own through one batcher, started at once.
    static func together(_ model: LlamaModel, batcher: SequenceBatcher) -> [[[Float]]] {
        let results = Mutex<[Int: [[Float]]]>([:])
        let group = DispatchGroup()
        for index in prompts.indices {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                run(index)
            }
        }
        group.wait()
        return results.withLock { results in prompts.indices.map { results[$0] ?? [] } }

        @Sendable func run(_ index: Int) {
            let session = InferenceSession(model: model, contextLength: 256)
            var logits: [[Float]] = []
            do {
                try batcher.evaluate(prompts[index], in: session)
                logits.append(Array(session.logits))
                for _ in 0..<steps[index] {
                    try batcher.evaluate([greedy(session.logits)], in: session)
                    logits.append(Array(session.logits))
                }
                batcher.pause(session)
            } catch {
                Issue.record("sequence \(index): \(error)")
            }
            results.withLock { $0[index] = logits }
        }
    }

    static func expectSame(_ model: LlamaModel, rowCapacity: Int, promptRows: Int = InferenceSession.batchSize) throws {
        let expected = try prompts.indices.map { try alone(model, prompt: prompts[$0], steps: steps[$0]) }
        let batcher = SequenceBatcher(
            model: model, contextLength: 256, rowCapacity: rowCapacity, promptRows: promptRows, gatheringWait: .milliseconds(50))
        let batched = together(model, batcher: batcher)
        for index in prompts.indices {
            #expect(batched[index].count == expected[index].count, "sequence \(index)")
            for (step, (ours, alone)) in zip(batched[index], expected[index]).enumerated() {
                let differing = zip(ours, alone).filter { $0.0.bitPattern != $0.1.bitPattern }.count
                #expect(differing == 0, "sequence \(index), step \(step): \(differing) logits differ from the sequence alone")
            }
        }
        // Sequences did share passes: fewer passes than positions.
        #expect(batcher.passCount < batcher.positionCount, "\(batcher.passCount) passes for \(batcher.positionCount) positions")
        print(
            "\(model.configuration.architecture), \(rowCapacity) rows, \(promptRows) for prompts: \(batcher.passCount) passes for \(batcher.positionCount) positions")
    }

    @Test(arguments: [KernelVariant.portable, .preferred])
    func sequencesDecodedTogetherGetTheirLogitsAlone(_ variant: KernelVariant) throws {
        let model = try LlamaModel(file: try TestModel.require(), threadCount: 2, kernels: variant)
        try Self.expectSame(model, rowCapacity: InferenceSession.batchSize)
        // A pass too small for every sequence's token: the rest wait for the next.
        try Self.expectSame(model, rowCapacity: 3)
        // Two prompt positions beside each sequence's token: prompts advance two at a pass.
        try Self.expectSame(model, rowCapacity: 1024, promptRows: 2)
        // The batcher's own sizes: the pass grows past its first size to run the long prompt.
        try Self.expectSame(model, rowCapacity: 1024, promptRows: 512)
    }

    /// Gemma 3: sliding-window layers, a soft cap on the logits and a 262k vocabulary, whose
    /// logits come from one product for several sequences.
    @Test func gemmaSequencesDecodedTogetherGetTheirLogitsAlone() throws {
        let model = try LlamaModel(file: try GemmaTests.requireFile(), threadCount: 2)
        try Self.expectSame(model, rowCapacity: InferenceSession.batchSize)
    }

    /// A pass waits for the sequences of the last one to come back, here for up to two minutes,
    /// unless they paused: sequences that take turns, each pausing after its tokens, never wait.
    @Test(.timeLimit(.minutes(1))) func pausedSequencesAreNotWaitedFor() throws {
        let model = try LlamaModel(file: try TestModel.require())
        let batcher = SequenceBatcher(model: model, contextLength: 64, gatheringWait: .seconds(120))
        let sessions = (0..<2).map { _ in InferenceSession(model: model, contextLength: 64) }
        for step in 0..<3 {
            for session in sessions {
                try batcher.evaluate(step == 0 ? [1, 504, 3575] : [Self.greedy(session.logits)], in: session)
                batcher.pause(session)
            }
        }
        #expect(batcher.passCount == 6)
        #expect(sessions.allSatisfy { $0.position == 5 })
    }

    /// A long prompt runs in one pass, which grows for it and shrinks back once its sequence
    /// pauses.
    @Test func aPassGrownForAPromptShrinksWhenIdle() throws {
        let model = try LlamaModel(file: try TestModel.require())
        let batcher = SequenceBatcher(model: model, contextLength: 256)
        let session = InferenceSession(model: model, contextLength: 256)
        #expect(batcher.passRoom == InferenceSession.batchSize)
        try batcher.evaluate(Self.prompts[1], in: session)
        #expect(batcher.passCount == 1)
        #expect(batcher.passRoom >= Self.prompts[1].count)
        batcher.pause(session)
        #expect(batcher.passRoom == InferenceSession.batchSize)
    }

    @Test func badTokensAreRefusedBeforeTheyRun() throws {
        let model = try LlamaModel(file: try TestModel.require())
        let batcher = SequenceBatcher(model: model, contextLength: 4)
        let session = InferenceSession(model: model, contextLength: 4)
        #expect(throws: InferenceSession.InferenceError.contextFull(needed: 5, available: 4)) { try batcher.evaluate([1, 2, 3, 4, 5], in: session) }
        #expect(throws: InferenceSession.InferenceError.invalidToken(999_999)) { try batcher.evaluate([999_999], in: session) }
        try batcher.evaluate([504, 3575], in: session)
        #expect(session.position == 2)
    }
}
