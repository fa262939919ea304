import Foundation
import GuidedKernels

/// A Llama-family transformer running on the CPU from a memory-mapped GGUF file: embeddings (tied
/// to the output when there is no `output.weight`), RMSNorm, rotary embeddings as llama.cpp
/// applies them, grouped-query attention, a gated feed-forward network, and a KV cache, with what
/// the architecture's ``ArchitectureTraits`` add. Every tensor's shape is checked against the
/// hyperparameters when the model loads; a missing or mis-shaped one is an error naming it.
public final class LlamaModel: @unchecked Sendable {
    struct Layer {
        let attentionNorm: UnsafeBufferPointer<Float>
        let query: WeightMatrix
        let key: WeightMatrix
        let value: WeightMatrix
        /// The projections' biases (Qwen 2).
        let queryBias: UnsafeBufferPointer<Float>?
        let keyBias: UnsafeBufferPointer<Float>?
        let valueBias: UnsafeBufferPointer<Float>?
        /// Per-head norms of queries and keys (Gemma 3, Qwen 3).
        let queryNorm: UnsafeBufferPointer<Float>?
        let keyNorm: UnsafeBufferPointer<Float>?
        let attentionOutput: WeightMatrix
        /// The norm of attention's output before the residual (Gemma 3).
        let postAttentionNorm: UnsafeBufferPointer<Float>?
        let feedForwardNorm: UnsafeBufferPointer<Float>
        let gate: WeightMatrix
        let up: WeightMatrix
        let down: WeightMatrix
        /// The norm of the feed-forward network's output before the residual (Gemma 3).
        let postFeedForwardNorm: UnsafeBufferPointer<Float>?
        /// What a LoRA adapter adds to the layer's products.
        var adapters = LayerAdapters()
    }

    /// What a LoRA adapter adds to each product of a layer; `nil` where it adds nothing.
    struct LayerAdapters {
        var query, key, value, attentionOutput, gate, up, down: LoRAProjection?
    }

    public let configuration: LlamaConfiguration
    /// The file the weights are read from, kept open while the model lives.
    public let file: GGUFFile
    let embeddings: WeightMatrix
    let output: WeightMatrix
    let outputNorm: UnsafeBufferPointer<Float>
    /// What each rotary frequency is divided by (`rope_freqs.weight`: Llama 3.1 and later's
    /// frequency scaling), when the file has them.
    let ropeFrequencyFactors: UnsafeBufferPointer<Float>?
    /// Long-context RoPE factors (`rope_factors_short.weight` and `rope_factors_long.weight`:
    /// Phi-3 128k, Phi-3.5, Phi-4 mini), which divide the frequencies, the short ones for contexts
    /// up to ``LlamaConfiguration/originalContextLength``, the long ones beyond.
    let longContextRopeFactors: (short: UnsafeBufferPointer<Float>, long: UnsafeBufferPointer<Float>)?
    let layers: [Layer]
    /// The LoRA adapter the model runs with, if any, its products decoded; and what it adds to
    /// the output's product.
    public let adapter: LoRAAdapter?
    let appliedAdapter: AppliedAdapter?
    let outputAdapter: LoRAProjection?
    /// How many threads the matrix products use.
    public let threadCount: Int
    /// The kernels the products and attention run on.
    public let kernels: KernelVariant
    let kernelTable: UnsafePointer<GuidedKernelTable>
    /// The products' kernels: `nil` when every product runs in floats, as the reference does, so
    /// that the transformer can be checked apart from the error of 8-bit activations.
    let integerKernels: UnsafePointer<GuidedKernelTable>?
    /// Whether the arithmetic around the products is llama.cpp's (GELU from 16-bit inputs and
    /// results, attention summed in 16 bits) rather than in floats: with the integer kernels.
    var roundsAsLlamaCpp: Bool { integerKernels != nil }
    private let workers: WorkerPool

    /// Loads the model in `file`, to run on `threadCount` threads with the `kernels` variant
    /// (``KernelVariant/preferred`` when it is not supported on this CPU), with `adapter`'s
    /// changes to its products when one is given (checked against the model: its architecture,
    /// and each matrix it adapts, by name and shape).
    public convenience init(
        file: GGUFFile, threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
        kernels: KernelVariant = .preferred, adapter: LoRAAdapter? = nil
    ) throws(GGUFError) {
        try self.init(file: file, threadCount: threadCount, kernels: kernels, floatProducts: false, adapter: adapter)
    }

    /// Loads the model; with `floatProducts`, every matrix product runs in floats.
    init(file: GGUFFile, threadCount: Int, kernels: KernelVariant, floatProducts: Bool, adapter: LoRAAdapter? = nil) throws(GGUFError) {
        self.file = file
        configuration = try LlamaConfiguration(file: file)
        self.threadCount = max(1, threadCount)
        self.kernels = kernels.isSupported ? kernels : .preferred
        kernelTable = self.kernels.table
        integerKernels = floatProducts ? nil : kernelTable
        workers = WorkerPool(threadCount: self.threadCount)
        func tensor(_ name: String) throws(GGUFError) -> GGUFTensorInfo {
            guard let info = file.tensorsByName[name] else { throw .missingKey("tensor \(name)") }
            return info
        }
        func matrix(_ name: String, rows: Int, columns: Int) throws(GGUFError) -> WeightMatrix {
            let weights = try WeightMatrix(file: file, tensor: try tensor(name))
            guard weights.rows == rows, weights.columns == columns else {
                throw .invalidTensor(name: name, reason: "\(weights.columns)x\(weights.rows) instead of \(columns)x\(rows)")
            }
            return weights
        }
        func vector(_ name: String, count: Int) throws(GGUFError) -> UnsafeBufferPointer<Float> {
            let info = try tensor(name)
            guard info.type == .f32, info.elementCount == count else {
                throw .invalidTensor(name: name, reason: "expected \(count) F32 values")
            }
            return file.data(of: info).bindMemory(to: Float.self)
        }
        let width = configuration.embeddingLength
        let vocabulary = configuration.vocabularySize
        let traits = configuration.traits
        let queryDimension = configuration.queryDimension
        let kvDimension = configuration.keyValueDimension
        let head = configuration.headDimension
        embeddings = try matrix("token_embd.weight", rows: vocabulary, columns: width)
        output = file.tensorsByName["output.weight"] != nil ? try matrix("output.weight", rows: vocabulary, columns: width) : embeddings
        outputNorm = try vector("output_norm.weight", count: width)
        ropeFrequencyFactors = file.tensorsByName["rope_freqs.weight"] != nil ? try vector("rope_freqs.weight", count: configuration.headDimension / 2) : nil
        if file.tensorsByName["rope_factors_short.weight"] != nil || file.tensorsByName["rope_factors_long.weight"] != nil {
            longContextRopeFactors = (
                try vector("rope_factors_short.weight", count: configuration.headDimension / 2),
                try vector("rope_factors_long.weight", count: configuration.headDimension / 2)
            )
        } else {
            longContextRopeFactors = nil
        }
        var layers: [Layer] = []
        let feedForward = configuration.feedForwardLength
        for index in 0..<configuration.layerCount {
            let prefix = "blk.\(index)."
            func optional(_ name: String, count: Int, if present: Bool) throws(GGUFError) -> UnsafeBufferPointer<Float>? {
                present ? try vector(prefix + name, count: count) : nil
            }
            // Phi-3's fused tensors, read as their parts.
            let query: WeightMatrix, key: WeightMatrix, value: WeightMatrix, gate: WeightMatrix, up: WeightMatrix
            if traits.fusesProjections {
                let qkv = try matrix(prefix + "attn_qkv.weight", rows: queryDimension + 2 * kvDimension, columns: width)
                query = qkv.rows(0..<queryDimension)
                key = qkv.rows(queryDimension..<queryDimension + kvDimension)
                value = qkv.rows(queryDimension + kvDimension..<queryDimension + 2 * kvDimension)
                let gateUp = try matrix(prefix + "ffn_up.weight", rows: 2 * feedForward, columns: width)
                gate = gateUp.rows(0..<feedForward)
                up = gateUp.rows(feedForward..<2 * feedForward)
            } else {
                query = try matrix(prefix + "attn_q.weight", rows: queryDimension, columns: width)
                key = try matrix(prefix + "attn_k.weight", rows: kvDimension, columns: width)
                value = try matrix(prefix + "attn_v.weight", rows: kvDimension, columns: width)
                gate = try matrix(prefix + "ffn_gate.weight", rows: feedForward, columns: width)
                up = try matrix(prefix + "ffn_up.weight", rows: feedForward, columns: width)
            }
            layers.append(
                Layer(
                    attentionNorm: try vector(prefix + "attn_norm.weight", count: width),
                    query: query, key: key, value: value,
                    queryBias: try optional("attn_q.bias", count: queryDimension, if: traits.hasProjectionBiases),
                    keyBias: try optional("attn_k.bias", count: kvDimension, if: traits.hasProjectionBiases),
                    valueBias: try optional("attn_v.bias", count: kvDimension, if: traits.hasProjectionBiases),
                    queryNorm: try optional("attn_q_norm.weight", count: head, if: traits.normalizesQueriesAndKeys),
                    keyNorm: try optional("attn_k_norm.weight", count: head, if: traits.normalizesQueriesAndKeys),
                    attentionOutput: try matrix(prefix + "attn_output.weight", rows: width, columns: queryDimension),
                    postAttentionNorm: try optional("post_attention_norm.weight", count: width, if: traits.normalizesSublayerOutputs),
                    feedForwardNorm: try vector(prefix + "ffn_norm.weight", count: width),
                    gate: gate, up: up,
                    down: try matrix(prefix + "ffn_down.weight", rows: width, columns: feedForward),
                    postFeedForwardNorm: try optional("post_ffw_norm.weight", count: width, if: traits.normalizesSublayerOutputs)))
        }
        self.adapter = adapter
        guard let adapter else {
            self.layers = layers
            appliedAdapter = nil
            outputAdapter = nil
            return
        }
        guard adapter.architecture == configuration.architecture else {
            throw .wrongType(key: "general.architecture", expected: "'\(configuration.architecture)' in the adapter, as in the model (it has '\(adapter.architecture)')")
        }
        let applied = AppliedAdapter()
        var adapted: Set<String> = []
        func projection(_ name: String, rows: Int, columns: Int, part: Range<Int>? = nil) throws(GGUFError) -> LoRAProjection? {
            adapted.insert(name)
            return try applied.projection(name, of: adapter, rows: rows, columns: columns, part: part)
        }
        for index in layers.indices {
            let prefix = "blk.\(index)."
            var adapters = LayerAdapters()
            if traits.fusesProjections {
                let rows = queryDimension + 2 * kvDimension
                adapters.query = try projection(prefix + "attn_qkv.weight", rows: rows, columns: width, part: 0..<queryDimension)
                adapters.key = try projection(prefix + "attn_qkv.weight", rows: rows, columns: width, part: queryDimension..<queryDimension + kvDimension)
                adapters.value = try projection(prefix + "attn_qkv.weight", rows: rows, columns: width, part: queryDimension + kvDimension..<rows)
                adapters.gate = try projection(prefix + "ffn_up.weight", rows: 2 * feedForward, columns: width, part: 0..<feedForward)
                adapters.up = try projection(prefix + "ffn_up.weight", rows: 2 * feedForward, columns: width, part: feedForward..<2 * feedForward)
            } else {
                adapters.query = try projection(prefix + "attn_q.weight", rows: queryDimension, columns: width)
                adapters.key = try projection(prefix + "attn_k.weight", rows: kvDimension, columns: width)
                adapters.value = try projection(prefix + "attn_v.weight", rows: kvDimension, columns: width)
                adapters.gate = try projection(prefix + "ffn_gate.weight", rows: feedForward, columns: width)
                adapters.up = try projection(prefix + "ffn_up.weight", rows: feedForward, columns: width)
            }
            adapters.attentionOutput = try projection(prefix + "attn_output.weight", rows: width, columns: queryDimension)
            adapters.down = try projection(prefix + "ffn_down.weight", rows: width, columns: feedForward)
            layers[index].adapters = adapters
        }
        outputAdapter = file.tensorsByName["output.weight"] != nil ? try projection("output.weight", rows: vocabulary, columns: width) : nil
        if let unknown = adapter.pairs.keys.sorted().first(where: { !adapted.contains($0) }) {
            throw .invalidTensor(name: unknown + ".lora_a", reason: "adapts '\(unknown)', which is not a matrix of this model's products")
        }
        self.layers = layers
        appliedAdapter = applied
    }

    /// `outputs[t] = matrix × inputs[t]` for `count` vectors, the rows split across threads.
    func multiply(_ matrix: WeightMatrix, batch inputs: UnsafePointer<Float>, count: Int, into outputs: UnsafeMutablePointer<Float>) {
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: matrix.columns * threadCount)
        defer { scratch.deallocate() }
        parallelize(matrix.rows) { chunk, rows in
            matrix.multiply(
                batch: inputs, inputStride: matrix.columns, count: count, into: outputs, outputStride: matrix.rows,
                rows: rows, scratch: scratch + chunk * matrix.columns)
        }
    }

    /// The form in which `matrix`'s products take their inputs: floats for every type when the
    /// products run in floats.
    func activationFormat(of matrix: WeightMatrix) -> ActivationFormat {
        integerKernels == nil ? .float : ActivationFormat(weights: matrix.type)
    }

    /// `outputs[t] = matrix × inputs[t]` for `count` vectors quantized together, the rows split
    /// across threads (a matrix too small to share is multiplied by the caller alone).
    func multiply(_ matrix: WeightMatrix, _ inputs: QuantizedVector, count: Int = 1, into outputs: UnsafeMutablePointer<Float>) {
        guard matrix.rows * count >= 64 * threadCount else {
            matrix.multiply(inputs, count: count, into: outputs, outputStride: matrix.rows, rows: 0..<matrix.rows, kernels: integerKernels)
            return
        }
        parallelize(matrix.rows) { _, rows in
            matrix.multiply(inputs, count: count, into: outputs, outputStride: matrix.rows, rows: rows, kernels: integerKernels)
        }
    }

    /// Runs `body(chunk, range)` on the pool for each thread's share of `0..<count`, chunk `0` on
    /// the caller's thread, and returns when all are done.
    func parallelize(_ count: Int, _ body: (Int, Range<Int>) -> Void) {
        let chunks = threadCount
        workers.run { chunk in body(chunk, count * chunk / chunks..<count * (chunk + 1) / chunks) }
    }
}
