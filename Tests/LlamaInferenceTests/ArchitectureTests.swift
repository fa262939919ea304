import Foundation
import Testing

@testable import LlamaInference

/// One tiny file per architecture (random weights, the tensor names and metadata of real files,
/// every weight type between its two layers), against llama.cpp on the same file:
/// `Tests/scripts/make-tiny-models.py` wrote the files and recorded llama.cpp's greedy
/// continuations with its log probabilities at each step.
@Suite struct ArchitectureTests {
    /// The largest difference allowed between a log probability and llama.cpp's: measured up to
    /// 0.038 (Llama 3), 0.023 (Qwen 2, Qwen 3), 0.019 (Phi-3, Llama), 0.008 (Gemma 3),
    /// for each variant. Both prepare a product's input as its weight type asks (8 bits in blocks
    /// of 32 with a 16-bit scale and, for Q4_1's and Q5_1's minimums, a 16-bit sum; of 256 for the
    /// K-quants; 16-bit floats for F16 and BF16), keep the KV cache in 16 bits and sum attention
    /// as llama.cpp's flash attention does, so what is left is the order of the sums (and
    /// llama.cpp's approximation of SiLU's exponential), where one rounding the other way moves a
    /// later 8-bit input by a step. (The distributions of random weights are flat: the 10 most
    /// likely tokens lie within about 1.)
    static let tolerance = 0.1
    /// How close llama.cpp's log probabilities of two tokens must be for a greedy continuation to
    /// take either, per kernel variant. The x86-64 kernels (`avx512` and `avx2` give the same
    /// products, bit for bit) give every greedy token of every file, with no margin. `portable`
    /// parts once, at Phi-3's step 14, where llama.cpp's best two are 0.0098 apart (against its
    /// vector builds and its build without vector instructions alike, which choose the same token
    /// there): within the rounding above, so it may take either within 0.02. NEON, not compared
    /// with a llama.cpp build on ARM, within 0.05. Past a tie, with llama.cpp's tokens read, every
    /// step's greedy token is llama.cpp's again.
    static func tieMargin(_ variant: KernelVariant) -> Double {
        switch variant {
        case .avx512, .avx2: 0
        case .portable: 0.02
        case .neon: 0.05
        }
    }

    /// The files: each architecture's, and Llama 3's (`llama` with RoPE frequency factors).
    static let files = [("llama", "llama"), ("qwen2", "qwen2"), ("qwen3", "qwen3"), ("gemma3", "gemma3"), ("phi3", "phi3"), ("llama3", "llama")]

    @Test(arguments: files)
    func agreesWithLlamaCpp(_ name: String, _ architecture: String) throws {
        let file = try GGUFFile(path: TestModel.fixtures.appendingPathComponent("tiny-\(name).gguf").path)
        let types = Set(file.tensorsByName.values.map(\.type))
        #expect(types.count >= 8, "\(name): weight types \(types)")
        let references = try LlamaCppContinuation.load("tiny-\(name)-reference.json")
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
