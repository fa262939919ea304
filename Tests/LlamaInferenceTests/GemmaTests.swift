import Foundation
import ModelFetching
import Testing
import TestSupport

@testable import LlamaInference

/// Gemma 3 270M (Q4_K_M: Q4_K, Q5_0, Q6_K and Q8_0 weights; architecture `gemma3`; a 262,144-token
/// SentencePiece vocabulary) against llama.cpp on the same file: `Tests/scripts/make-gemma-fixture.py`
/// recorded llama.cpp's tokens, greedy continuations and log probabilities.
@Suite(.threadOfItsOwn) struct GemmaTests {
    /// The largest difference allowed between a log probability and llama.cpp's for its 10 most
    /// likely tokens: measured up to 0.76 (each variant against its reference below), where
    /// llama.cpp's own builds differ from each other by up to 0.91 (on an Intel Xeon with
    /// AVX512-FP16 and on an AMD Zen 4, the same prompts and file). Both
    /// prepare a product's input as the weight type asks (8 bits in blocks of 32 with a 16-bit
    /// scale, or of 256 with one scale for the K-quants) and keep the KV cache in 16 bits, so the
    /// figures differ by the order of the sums, where one rounding the other way moves a later
    /// 8-bit input by a step, which Gemma's 18 layers amplify; the transformer itself is checked
    /// in floats against an independent implementation below, within ``floatTolerance``.
    static let tolerance = 1.1
    /// The largest difference allowed between a logit and the float64 numpy reference's
    /// (`Tests/scripts/reference-logits-gemma3.py`) when every product runs in floats.
    static let floatTolerance: Float = 0.01
    /// How close llama.cpp's log probabilities of two tokens must be for a greedy continuation to
    /// take either, for the NEON kernels, which have not been compared with a llama.cpp build of
    /// their own: within the rounding above, a decision that can go either way. The others give
    /// the 64 tokens of the llama.cpp build that computes as they do, with no margin: the x86-64
    /// kernels (`avx512` and `avx2` give the same products, bit for bit) those of each of its
    /// vector builds (native on an Intel Xeon with AVX512-FP16, whose answers the fixture holds,
    /// and on Zen 4, and AVX2 only), `portable` those of its build without vector instructions,
    /// which parts from the vector builds at one token (where their two best are 0.02 to 0.21
    /// apart).
    static let tieMargin = 0.15

    static let path = ModelStore.path(of: .gemma3_270m)

    static func requireFile() throws -> GGUFFile {
        try #require(
            try? GGUFFile(path: path), "Gemma 3 270M is missing at \(path): run `swift run -c release guided fetch-model gemma3-270m` first")
    }

    @Test func configurationIsReadFromTheFile() throws {
        let configuration = try LlamaConfiguration(file: try Self.requireFile())
        #expect(configuration.architecture == "gemma3")
        #expect(configuration.layerCount == 18 && configuration.embeddingLength == 640 && configuration.headDimension == 256)
        #expect(configuration.headCount == 4 && configuration.keyValueHeadCount == 1 && configuration.contextLength == 32768)
        #expect(configuration.slidingWindow == 512 && configuration.vocabularySize == 262_144)
        // Five sliding-window layers (RoPE base 10,000), then a global one (1,000,000).
        #expect((0..<12).map(configuration.isSlidingWindowLayer) == [true, true, true, true, true, false, true, true, true, true, true, false])
        #expect(configuration.ropeBase(ofLayer: 0) == 10_000 && configuration.ropeBase(ofLayer: 5) == 1_000_000)
    }

    @Test func tokenizesAsLlamaCpp() throws {
        let tokenizer = try makeTokenizer(file: try Self.requireFile())
        try TokenizerTests.expectTokenizes(like: "gemma3-tokenizer.jsonl", tokenizer, atLeast: 2200)
        // Control tokens only from templates; the BOS as llama.cpp writes it.
        #expect(tokenizer.encode("<start_of_turn>user\n", parsingSpecialTokens: true) == [105, 2364, 107])
        #expect(!tokenizer.encode("<start_of_turn>").contains(105))
        #expect(tokenizer.beginningOfText == 2 && tokenizer.endOfText == 1)
    }

    /// Every product in floats: the 20 largest logits after each prompt are the reference's.
    @Test func logitsAgreeWithTheFloatReference() throws {
        struct FloatReference: Decodable {
            let tokens: [Int32]
            let top: [[Double]]
        }
        let references = try JSONDecoder().decode(
            [FloatReference].self, from: Data(contentsOf: TestModel.fixtures.appendingPathComponent("gemma3-float-reference.json")))
        let model = try LlamaModel(file: try Self.requireFile(), threadCount: 2, kernels: .portable, floatProducts: true)
        var largest: Float = 0
        for reference in references {
            let session = InferenceSession(model: model, contextLength: 64)
            try session.evaluate(reference.tokens)
            let ours = session.logits.indices.sorted { session.logits[$0] > session.logits[$1] }.prefix(10)
            #expect(Array(ours) == reference.top.prefix(10).map { Int($0[0]) })
            for entry in reference.top {
                largest = max(largest, abs(session.logits[Int(entry[0])] - Float(entry[1])))
            }
        }
        print("Gemma 3 270M in floats: largest logit difference from the reference \(largest)")
        #expect(largest <= Self.floatTolerance)
    }

    /// Log probabilities after each prompt and each token of llama.cpp's continuation within
    /// ``tolerance`` of llama.cpp's, and the greedy tokens llama.cpp's: for each kernel variant,
    /// those of the llama.cpp build that computes as it does (`gemma3-reference.json` from its
    /// vector builds, `gemma3-reference-scalar.json` from its build without vector instructions).
    @Test(arguments: KernelVariant.supported)
    func agreesWithLlamaCpp(_ variant: KernelVariant) throws {
        let file = try Self.requireFile()
        let tokenizer = try makeTokenizer(file: file)
        let model = try LlamaModel(file: file, threadCount: 2, kernels: variant)
        let (fixture, tieMargin) =
            switch variant {
            case .portable: ("gemma3-reference-scalar.json", 0.0)
            case .avx512, .avx2: ("gemma3-reference.json", 0.0)
            case .neon: ("gemma3-reference.json", Self.tieMargin)
            }
        var largest = 0.0
        var agreeing = 0
        var parted = 0
        var steps = 0
        for reference in try LlamaCppContinuation.load(fixture) {
            let text = reference.text ?? ""
            #expect([2] + tokenizer.encode(text) == reference.tokens, "\(text)")
            let result = try reference.compare(with: model, tolerance: Self.tolerance, tieMargin: tieMargin, label: "\(variant), \(text)")
            largest = max(largest, result.largest)
            agreeing += result.agreeing
            parted += result.parted
            steps += reference.steps.count
        }
        print(
            "Gemma 3 270M, \(variant): largest log-probability difference from llama.cpp \(largest), \(agreeing) of \(steps) greedy tokens alike "
                + "before a tie, \(parted) steps parted at ties")
    }
}
