import Foundation
import LlamaInference
import Testing

/// The transformer against an independent numpy implementation (`Tests/scripts/reference-logits.py`,
/// weights dequantized by the `gguf` package): last-position logits within a tolerance, the same
/// top 10, and the same greedy continuations.
@Suite struct ForwardPassTests {
    struct Reference: Decodable {
        let tokens: [Int32]
        let top10: [Int]
        let greedy: [Int32]
    }

    /// The largest difference allowed between a logit and the reference's (logits span about 40).
    static let tolerance: Float = 0.02

    static func references() throws -> [Reference] {
        try JSONDecoder().decode([Reference].self, from: Data(contentsOf: TestModel.fixtures.appendingPathComponent("smollm2-reference.json")))
    }

    @Test func logitsAgreeWithTheReference() throws {
        let model = try LlamaModel(file: try TestModel.require())
        for (index, reference) in try Self.references().enumerated() {
            let session = InferenceSession(model: model, contextLength: 128)
            try session.evaluate(reference.tokens)
            let data = try Data(contentsOf: TestModel.fixtures.appendingPathComponent("smollm2-logits-\(index).bin"))
            let expected = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            #expect(expected.count == session.logits.count)
            var largest: Float = 0
            for (position, value) in expected.enumerated() { largest = max(largest, abs(value - session.logits[position])) }
            print("prompt \(index): max abs logit difference from the reference \(largest)")
            #expect(largest < Self.tolerance, "prompt \(index): max abs difference \(largest)")
            let top = session.logits.indices.sorted { session.logits[$0] > session.logits[$1] }.prefix(10)
            #expect(Array(top) == reference.top10, "prompt \(index)")
        }
    }

    @Test func greedyContinuationsMatchTheReference() throws {
        let model = try LlamaModel(file: try TestModel.require())
        for reference in try Self.references() {
            let session = InferenceSession(model: model, contextLength: 128)
            try session.evaluate(reference.tokens)
            var continuation: [Int32] = []
            for _ in reference.greedy {
                let next = Int32(session.logits.indices.max { session.logits[$0] < session.logits[$1] } ?? 0)
                continuation.append(next)
                try session.evaluate([next])
            }
            #expect(continuation == reference.greedy)
        }
    }

    @Test func theContextIsBounded() throws {
        let model = try LlamaModel(file: try TestModel.require())
        let session = InferenceSession(model: model, contextLength: 4)
        #expect(throws: InferenceSession.InferenceError.contextFull(needed: 5, available: 4)) { try session.evaluate([1, 2, 3, 4, 5]) }
        #expect(throws: InferenceSession.InferenceError.invalidToken(999_999)) { try session.evaluate([999_999]) }
        try session.evaluate([504, 3575])
        session.truncate(to: 1)
        #expect(session.position == 1)
    }
}
