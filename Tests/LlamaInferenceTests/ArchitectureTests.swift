import Foundation
import Testing
import TestSupport

@testable import LlamaInference

/// One tiny file per architecture (random weights, the tensor names and metadata of real files,
/// every weight type between its two layers), against llama.cpp on the same file:
/// `Tests/scripts/make-tiny-models.py` wrote the files and recorded llama.cpp's greedy
/// continuations with its log probabilities at each step.
@Suite(.threadOfItsOwn) struct ArchitectureTests {
    /// The largest difference allowed between a log probability and llama.cpp's: measured up to
    /// 0.038 (Llama 3), 0.023 (Qwen 2, Qwen 3), 0.019 (Phi-3, Llama), 0.008 (Gemma 3), and on the
    /// files of one weight type 0.061 (Q2_K), 0.047 (Q4_K), 0.041 (Q6_K), 0.029 (Q5_K), 0.022 (Q3_K,
    /// Q4_1), 0.020 (Q5_1, Q8_0), 0.018 (Q5_0), 0.011 (IQ4_NL), 0.009 (Q4_0), 0.002 (BF16), for
    /// each variant. Both prepare a product's input as its weight type asks (8 bits in blocks
    /// of 32 with a 16-bit scale and, for Q4_1's and Q5_1's minimums, a 16-bit sum; of 256 for the
    /// K-quants; 16-bit floats for F16 and BF16), keep the KV cache in 16 bits and sum attention
    /// as llama.cpp's flash attention does, so what is left is the order of the sums (and
    /// llama.cpp's approximation of SiLU's exponential), where one rounding the other way moves a
    /// later 8-bit input by a step. (The distributions of random weights are flat: the 10 most
    /// likely tokens lie within about 1.)
    static let tolerance = 0.1
    /// How close llama.cpp's log probabilities of two tokens must be for a greedy continuation to
    /// take either, per kernel variant: within the rounding above. Over the 18 files and their
    /// 1,728 steps (x86-64 and `portable`), the continuations part twice, each time where
    /// llama.cpp's best two are closer than the largest difference measured on that file: Phi-3 with
    /// `portable` at step 14 (0.0098 apart; llama.cpp's build without vector instructions chooses as
    /// its vector builds do there), and Q4_1 with `avx512` and `avx2` (which give the same
    /// products, bit for bit) at step 15 of one prompt (0.0146 apart, the file's largest difference
    /// 0.022). NEON, not compared with a llama.cpp build on ARM (its products are the portable ones'
    /// within 6e-6: `Tests/scripts/check-arm64-kernels.sh`), within 0.05. Past a tie, with
    /// llama.cpp's tokens read, every step's greedy token is llama.cpp's again.
    static func tieMargin(_ variant: KernelVariant) -> Double {
        variant == .neon ? 0.05 : 0.02
    }

    /// The files: each architecture's, and Llama 3's (`llama` with RoPE frequency factors).
    static let files = [("llama", "llama"), ("qwen2", "qwen2"), ("qwen3", "qwen3"), ("gemma3", "gemma3"), ("phi3", "phi3"), ("llama3", "llama")]

    @Test(arguments: files)
    func agreesWithLlamaCpp(_ name: String, _ architecture: String) throws {
        let file = try GGUFFile(path: TestModel.fixtures.appendingPathComponent("tiny-\(name).gguf").path)
        let types = Set(file.tensorsByName.values.map(\.type))
        #expect(types.count >= 8, "\(name): weight types \(types)")
        try Self.expectAgreement(file: file, name: name, architecture: architecture)
    }

    /// The weight types of the files of one type each.
    static let weightTypes: [GGMLType] = [.q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .iq4_nl, .q2_K, .q3_K, .q4_K, .q5_K, .q6_K, .bf16]

    /// One file per weight type (`llama`, one layer; every matrix, the embeddings and the output of
    /// that type, with minimums that keep the weights' average near zero), so that a type whose
    /// products part from llama.cpp's is named by its own test.
    @Test(arguments: weightTypes)
    func eachWeightTypeAgreesWithLlamaCpp(_ type: GGMLType) throws {
        let name = "type-\(String(describing: type).lowercased())"
        let file = try GGUFFile(path: TestModel.fixtures.appendingPathComponent("tiny-\(name).gguf").path)
        let matrices = file.tensorsByName.filter { !$0.key.contains("norm") }
        #expect(matrices.count == 9 && matrices.values.allSatisfy { $0.type == type }, "\(name): \(matrices.mapValues(\.type))")
        try Self.expectAgreement(file: file, name: "llama, \(type)", architecture: "llama", fixture: "tiny-\(name)-reference.json")
    }

    /// Runs llama.cpp's continuations of `file` (`fixture`, else the file's own name's) through
    /// each kernel variant the CPU has, and prints how closely they agree.
    static func expectAgreement(file: GGUFFile, name: String, architecture: String, fixture: String? = nil) throws {
        let references = try LlamaCppContinuation.load(fixture ?? "tiny-\(name)-reference.json")
        var largest = 0.0
        var agreeing = 0
        var parted = 0
        var steps = 0
        for variant in KernelVariant.supported {
            let model = try LlamaModel(file: file, threadCount: 2, kernels: variant)
            #expect(model.configuration.architecture == architecture)
            for reference in references {
                let result = try reference.compare(
                    with: model, tolerance: Self.tolerance, tieMargin: Self.tieMargin(variant), label: "\(name), \(variant)")
                largest = max(largest, result.largest)
                agreeing += result.agreeing
                parted += result.parted
                steps += reference.steps.count
            }
        }
        print(
            "\(name): largest log-probability difference from llama.cpp \(largest), \(agreeing) of \(steps) greedy tokens alike before a "
                + "tie, \(parted) steps parted at ties")
    }

    /// Phi-3's long-context RoPE factors, as llama.cpp chooses them: the short ones for a context
    /// up to the original length (256), the long ones beyond (512); the file's attention factor
    /// (2, larger than real files' 1.19 so that it shows) scales the queries and keys. llama.cpp's log probabilities at the two lengths differ
    /// by up to 0.70.
    @Test(arguments: [(256, "tiny-phi3-longrope-reference.json"), (512, "tiny-phi3-longrope-long-reference.json")])
    func longContextRopeFactorsAgreeWithLlamaCpp(_ contextLength: Int, _ fixture: String) throws {
        let file = try GGUFFile(path: TestModel.fixtures.appendingPathComponent("tiny-phi3-longrope.gguf").path)
        var largest = 0.0
        for variant in KernelVariant.supported {
            let model = try LlamaModel(file: file, threadCount: 2, kernels: variant)
            #expect(model.configuration.originalContextLength == 256 && model.configuration.ropeAttentionFactor == 2)
            for reference in try LlamaCppContinuation.load(fixture) {
                let result = try reference.compare(
                    with: model, contextLength: contextLength, tolerance: Self.longRopeTolerance, tieMargin: Self.tieMargin(variant),
                    label: "phi3 long-context RoPE, context \(contextLength), \(variant)")
                largest = max(largest, result.largest)
            }
        }
        print("phi3 long-context RoPE, context \(contextLength): largest log-probability difference from llama.cpp \(largest)")
    }

    /// Tighter than ``tolerance``, so that the factors of the other length would fail.
    static let longRopeTolerance = 0.15
}

/// Files outside what the library runs: errors that name what is wrong.
@Suite struct UnsupportedModelTests {
    /// The bytes of a tiny model file, with `edit` applied.
    static func tinyFile(_ edit: (inout [UInt8]) throws -> Void) throws -> GGUFFile {
        var bytes = [UInt8](try Data(contentsOf: TestModel.fixtures.appendingPathComponent("tiny-llama.gguf")))
        try edit(&bytes)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("edited-\(UUID().uuidString).gguf").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try GGUFFile(path: path)
    }

    static func offset(of pattern: [UInt8], in bytes: [UInt8]) throws -> Int {
        try #require((0...(bytes.count - pattern.count)).first { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) })
    }

    @Test func anUnknownArchitectureIsNamed() throws {
        let file = try Self.tinyFile { bytes in
            // The value of general.architecture: "llama" becomes "mamba".
            let key = Array("general.architecture".utf8)
            let value = try Self.offset(of: key, in: bytes) + key.count + 4 + 8
            bytes.replaceSubrange(value..<value + 5, with: Array("mamba".utf8))
        }
        #expect { try LlamaModel(file: file, threadCount: 1) } throws: { error in
            "\(error)".contains("'mamba'") && "\(error)".contains("gemma3")
        }
    }

    @Test func anUnknownWeightTypeIsNamedWithItsTensor() throws {
        do {
            _ = try Self.tinyFile { bytes in
                // blk.0.attn_q.weight: name, 2 dimensions, then its type, made IQ2_XXS (16).
                let name = Array("blk.0.attn_q.weight".utf8)
                let type = try Self.offset(of: name, in: bytes) + name.count + 4 + 2 * 8
                bytes.replaceSubrange(type..<type + 4, with: [16, 0, 0, 0])
            }
            Issue.record("a file with an IQ2_XXS tensor was read")
        } catch {
            #expect("\(error)".contains("blk.0.attn_q.weight") && "\(error)".contains("IQ2_XXS"), "\(error)")
        }
    }

    @Test func aMisShapedTensorIsNamed() throws {
        let file = try Self.tinyFile { bytes in
            // ffn_norm of layer 0 declared 128 long instead of 256: its first dimension halved.
            let name = Array("blk.0.ffn_norm.weight".utf8)
            let dimension = try Self.offset(of: name, in: bytes) + name.count + 4
            bytes.replaceSubrange(dimension..<dimension + 8, with: [128, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect { try LlamaModel(file: file, threadCount: 1) } throws: { error in
            "\(error)".contains("blk.0.ffn_norm.weight")
        }
    }
}
