import Foundation
import Testing
import TestSupport

@testable import LlamaInference

/// LoRA adapters in GGUF, as llama.cpp's `--lora` applies them: `Tests/scripts/make-tiny-models.py`
/// wrote an adapter for the tiny Llama file and one for the tiny Phi-3 file (its fused QKV and
/// gate-up matrices), every matrix and the output adapted (rank 4, alpha 8, A in F32, B in F16),
/// and recorded llama.cpp's greedy continuations with the adapter applied.
@Suite(.threadOfItsOwn) struct LoRAAdapterTests {
    static func fixture(_ name: String) -> String { TestModel.fixtures.appendingPathComponent(name).path }

    @Test(arguments: [("llama", "llama"), ("phi3", "phi3")])
    func agreesWithLlamaCppWithTheAdapter(_ name: String, _ architecture: String) throws {
        let file = try GGUFFile(path: Self.fixture("tiny-\(name).gguf"))
        let adapter = try LoRAAdapter(path: Self.fixture("tiny-\(name)-lora.gguf"))
        #expect(adapter.architecture == architecture && adapter.alpha == 8)
        let references = try LlamaCppContinuation.load("tiny-\(name)-lora-reference.json")
        for variant in KernelVariant.supported {
            let model = try LlamaModel(file: file, threadCount: 2, kernels: variant, adapter: adapter)
            for reference in references {
                _ = try reference.compare(
                    with: model, tolerance: ArchitectureTests.tolerance, tieMargin: ArchitectureTests.tieMargin(variant), label: "\(name) with its adapter, \(variant)")
            }
        }
        // Without the adapter the model does not continue as llama.cpp does with it.
        let plain = InferenceSession(model: try LlamaModel(file: file, threadCount: 2), contextLength: 64)
        let reference = try #require(references.first)
        try plain.evaluate(reference.tokens)
        let best = plain.logits.indices.max { plain.logits[$0] < plain.logits[$1] }
        #expect(best.map(Int32.init) != reference.steps.first?.token)
    }

    @Test func aModelIsNotAnAdapter() throws {
        #expect(throws: GGUFError.wrongType(key: "general.type", expected: "'adapter' (this file is a model, not an adapter)")) {
            try LoRAAdapter(path: Self.fixture("tiny-llama.gguf"))
        }
    }

    @Test func anAdapterForAnotherArchitectureIsRefused() throws {
        let file = try GGUFFile(path: Self.fixture("tiny-phi3.gguf"))
        let adapter = try LoRAAdapter(path: Self.fixture("tiny-llama-lora.gguf"))
        #expect(throws: GGUFError.wrongType(key: "general.architecture", expected: "'phi3' in the adapter, as in the model (it has 'llama')")) {
            try LlamaModel(file: file, threadCount: 1, adapter: adapter)
        }
    }

    static var adapterMetadata: [(String, Any)] { [
        ("general.architecture", "llama"), ("general.type", "adapter"), ("adapter.type", "lora"), ("adapter.lora.alpha", Float(8)),
    ] }

    static func adapter(_ tensors: [(name: String, dimensions: [UInt64], values: [Float])]) throws -> LoRAAdapter {
        let bytes = GGUFWriter.file(metadata: adapterMetadata, tensors: tensors)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 64)
        buffer.copyBytes(from: bytes)
        return try LoRAAdapter(file: try GGUFFile(bytes: UnsafeRawBufferPointer(buffer)) { buffer.deallocate() })
    }

    @Test func pairsAndShapesAreChecked() throws {
        let a = (name: "blk.0.attn_q.weight.lora_a", dimensions: [UInt64(256), 2], values: [Float](repeating: 0, count: 512))
        #expect(throws: GGUFError.invalidTensor(name: a.name, reason: "its partner blk.0.attn_q.weight.lora_b is missing")) {
            try Self.adapter([a])
        }
        // A matrix of another shape (lora_b's rows must be attn_q's 256).
        let b = (name: "blk.0.attn_q.weight.lora_b", dimensions: [UInt64(2), 8], values: [Float](repeating: 0, count: 16))
        let file = try GGUFFile(path: Self.fixture("tiny-llama.gguf"))
        #expect(throws: GGUFError.invalidTensor(name: "blk.0.attn_q.weight.lora_a", reason: "adapts a 256x256 matrix, but lora_a has 256 columns and lora_b 8 rows")) {
            try LlamaModel(file: file, threadCount: 1, adapter: try Self.adapter([a, b]))
        }
        // A matrix the model does not have.
        let stray = (name: "blk.9.attn_q.weight.lora_a", dimensions: [UInt64(256), 2], values: [Float](repeating: 0, count: 512))
        let strayB = (name: "blk.9.attn_q.weight.lora_b", dimensions: [UInt64(2), 256], values: [Float](repeating: 0, count: 512))
        #expect(throws: GGUFError.invalidTensor(name: "blk.9.attn_q.weight.lora_a", reason: "adapts 'blk.9.attn_q.weight', which is not a matrix of this model's products")) {
            try LlamaModel(file: file, threadCount: 1, adapter: try Self.adapter([stray, strayB]))
        }
    }
}
