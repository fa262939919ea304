import Foundation
import Testing
import TestSupport

@testable import LlamaInference

/// The transformer against an independent numpy implementation (`Tests/scripts/reference-logits.py`,
/// weights dequantized by the `gguf` package): with every product in floats, last-position logits
/// within a tight tolerance, the same top 10 and the same greedy continuations; with each kernel
/// variant's integer products (8-bit activations, as llama.cpp's), logits within the error that
/// quantizing the activations brings.
@Suite(.threadOfItsOwn) struct ForwardPassTests {
    struct Reference: Decodable {
        let tokens: [Int32]
        let top10: [Int]
        let greedy: [Int32]
    }

    /// The largest difference allowed between a logit and the reference's (logits span about 40)
    /// when the products run in floats: measured up to 0.0096. Both keep the KV cache in 16 bits,
    /// where a key or value that lies near the middle of two 16-bit numbers may round to the
    /// other one (with a 32-bit cache it was 0.00004).
    static let tolerance: Float = 0.02

    /// The error allowed with the integer kernels, whose inputs are quantized to 8 bits per block
    /// of 32 as llama.cpp's are: measured on the three prompts, AVX2 and portable variants, up to
    /// 1.47 for one logit and 0.42 root mean square.
    static let integerTolerance = (largest: Float(2.0), rootMeanSquare: Float(0.6))

    static func references() throws -> [Reference] {
        try JSONDecoder().decode([Reference].self, from: Data(contentsOf: TestModel.fixtures.appendingPathComponent("smollm2-reference.json")))
    }

    static func floatModel() throws -> LlamaModel {
        try LlamaModel(file: try TestModel.require(), threadCount: 2, kernels: .portable, floatProducts: true)
    }

    static func expectedLogits(_ index: Int) throws -> [Float] {
        let data = try Data(contentsOf: TestModel.fixtures.appendingPathComponent("smollm2-logits-\(index).bin"))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The largest and the root-mean-square difference of `logits` from the reference's.
    static func differences(_ logits: UnsafeMutableBufferPointer<Float>, from expected: [Float]) -> (largest: Float, rootMeanSquare: Float) {
        var largest: Float = 0
        var squares: Float = 0
        for (position, value) in expected.enumerated() {
            let difference = abs(value - logits[position])
            largest = max(largest, difference)
            squares += difference * difference
        }
        return (largest, (squares / Float(max(1, expected.count))).squareRoot())
    }

    /// The prompts run as batches (the prefill path).
    @Test func logitsAgreeWithTheReference() throws {
        let model = try Self.floatModel()
        for (index, reference) in try Self.references().enumerated() {
            let session = InferenceSession(model: model, contextLength: 128)
            try session.evaluate(reference.tokens)
            try Self.expectAgreement(session.logits, index: index, reference: reference)
        }
    }

    /// The prompts run one token at a time (the decode path).
    @Test func tokenByTokenLogitsAgreeWithTheReference() throws {
        let model = try Self.floatModel()
        for (index, reference) in try Self.references().enumerated() {
            let session = InferenceSession(model: model, contextLength: 128)
            for token in reference.tokens { try session.evaluate([token]) }
            try Self.expectAgreement(session.logits, index: index, reference: reference)
        }
    }

    static func expectAgreement(_ logits: UnsafeMutableBufferPointer<Float>, index: Int, reference: Reference) throws {
        let expected = try expectedLogits(index)
        #expect(expected.count == logits.count)
        let largest = differences(logits, from: expected).largest
        #expect(largest < tolerance, "prompt \(index): max abs difference \(largest)")
        // The same top 10 in the same order, except that tokens whose reference logits lie within
        // the tolerance of each other may swap.
        let top = Array(logits.indices.sorted { logits[$0] > logits[$1] }.prefix(10))
        for (rank, token) in top.enumerated() {
            let gap = abs(expected[token] - expected[reference.top10[rank]])
            #expect(gap <= tolerance, "prompt \(index), rank \(rank): token \(token) where the reference has \(reference.top10[rank])")
        }
    }

    @Test func greedyContinuationsMatchTheReference() throws {
        let model = try Self.floatModel()
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

    /// Each variant this CPU runs, through its integer kernels, batch and token by token: logits
    /// within the error of 8-bit activations, and a first choice among the reference's top 5.
    @Test(arguments: KernelVariant.supported)
    func integerKernelsStayNearTheReference(_ variant: KernelVariant) throws {
        let model = try LlamaModel(file: try TestModel.require(), threadCount: 2, kernels: variant)
        #expect(model.kernels == variant)
        for (index, reference) in try Self.references().enumerated() {
            let expected = try Self.expectedLogits(index)
            for batched in [true, false] {
                let session = InferenceSession(model: model, contextLength: 128)
                if batched {
                    try session.evaluate(reference.tokens)
                } else {
                    for token in reference.tokens { try session.evaluate([token]) }
                }
                let (largest, rootMeanSquare) = Self.differences(session.logits, from: expected)
                print("\(variant), prompt \(index), \(batched ? "batch" : "token by token"): max abs logit difference \(largest), rms \(rootMeanSquare)")
                #expect(largest < Self.integerTolerance.largest, "\(variant), prompt \(index): max abs difference \(largest)")
                #expect(rootMeanSquare < Self.integerTolerance.rootMeanSquare, "\(variant), prompt \(index): rms \(rootMeanSquare)")
                let first = session.logits.indices.max { session.logits[$0] < session.logits[$1] } ?? 0
                #expect(reference.top10.prefix(5).contains(first), "\(variant), prompt \(index): first choice \(first)")
            }
        }
    }

    /// A batch is shared across threads by positions, by attention's interleaved positions and by
    /// blocks of its quantized inputs, and a product by rows: the logits do not depend on how many
    /// threads there are, bit for bit, in batches and token by token.
    @Test(arguments: [KernelVariant.portable, .preferred])
    func threadsDoNotChangeTheLogits(_ variant: KernelVariant) throws {
        let file = try TestModel.require()
        let tokens = try Self.references().flatMap(\.tokens)
        func logits(threads: Int) throws -> [Float] {
            let session = InferenceSession(model: try LlamaModel(file: file, threadCount: threads, kernels: variant), contextLength: 256)
            try session.evaluate(tokens)
            try session.evaluate([tokens[0]])
            return Array(session.logits)
        }
        let single = try logits(threads: 1)
        for threads in [2, 3] {
            let shared = try logits(threads: threads)
            let differing = zip(single, shared).filter { $0.0.bitPattern != $0.1.bitPattern }.count
            #expect(differing == 0, "\(variant), \(threads) threads: \(differing) logits differ from one thread's")
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
