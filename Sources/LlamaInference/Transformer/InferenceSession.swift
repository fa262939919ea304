import Foundation
import GuidedKernels

/// One sequence running through a ``LlamaModel``: its KV cache and scratch buffers. Feed tokens
/// with ``evaluate(_:)`` and read the logits of the last one; ``truncate(to:)`` drops the end of
/// the cache so that a shared prefix is computed once.
public final class InferenceSession {
    public let model: LlamaModel
    /// How many positions the cache holds.
    public let contextLength: Int
    /// How many positions are in the cache.
    public private(set) var position = 0

    /// The cache: each layer's keys and values at every position, in 16 bits as llama.cpp keeps
    /// them (half the memory of floats).
    private let keys: UnsafeMutablePointer<UInt16>
    private let values: UnsafeMutablePointer<UInt16>
    /// The activations of the positions one forward pass runs: a token being decoded uses the
    /// first row of each, a prefill batch up to ``batchSize`` rows.
    private let hiddens: UnsafeMutablePointer<Float>
    private let normeds: UnsafeMutablePointer<Float>
    private let queries: UnsafeMutablePointer<Float>
    private let newKeys: UnsafeMutablePointer<Float>
    private let newValues: UnsafeMutablePointer<Float>
    private let attentions: UnsafeMutablePointer<Float>
    private let projections: UnsafeMutablePointer<Float>
    private let gates: UnsafeMutablePointer<Float>
    private let ups: UnsafeMutablePointer<Float>
    /// Attention's scores: one row of the context's length per thread.
    private let scores: UnsafeMutablePointer<Float>
    /// The rotary frequencies of the global layers, and of the sliding-window layers.
    private let ropeFrequencies: [Float]
    private let localRopeFrequencies: [Float]
    /// The input of the current matrix products, in the forms their weights take it.
    private var quantized: QuantizedVector
    /// The inputs of a batch's matrix products, in the forms their weights take them.
    private var batchQuantized: QuantizedVector
    /// How many tokens a prefill batch holds.
    public static let batchSize = 64
    /// From how many tokens on a batch's attention sums in floats, as llama.cpp's tiled flash
    /// attention does (under it, in 16 bits).
    static let floatSumsBatch = 64
    /// How many tokens llama.cpp reads at once (its default `n_ubatch`): whether attention sums
    /// in floats depends on the size of that batch, not on the size of this engine's.
    static let roundingBatch = 512

    /// The logits of the last token evaluated.
    public let logits: UnsafeMutableBufferPointer<Float>

    /// Why tokens cannot be evaluated.
    public enum InferenceError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The tokens do not fit in the context.
        case contextFull(needed: Int, available: Int)
        /// A token id outside the vocabulary.
        case invalidToken(Int32)

        public var description: String {
            switch self {
            case .contextFull(let needed, let available): "\(needed) tokens do not fit in the \(available) positions left in the context"
            case .invalidToken(let token): "token \(token) is not in the vocabulary"
            }
        }
    }

    public init(model: LlamaModel, contextLength: Int = 2048) {
        self.model = model
        let configuration = model.configuration
        self.contextLength = max(1, min(contextLength, configuration.contextLength))
        let cacheSize = configuration.layerCount * self.contextLength * configuration.keyValueDimension
        keys = .allocate(capacity: cacheSize)
        values = .allocate(capacity: cacheSize)
        let width = configuration.embeddingLength
        let rows = min(Self.batchSize, self.contextLength)
        hiddens = .allocate(capacity: rows * width)
        normeds = .allocate(capacity: rows * width)
        queries = .allocate(capacity: rows * configuration.queryDimension)
        newKeys = .allocate(capacity: rows * configuration.keyValueDimension)
        newValues = .allocate(capacity: rows * configuration.keyValueDimension)
        attentions = .allocate(capacity: rows * configuration.queryDimension)
        projections = .allocate(capacity: rows * width)
        gates = .allocate(capacity: rows * configuration.feedForwardLength)
        ups = .allocate(capacity: rows * configuration.feedForwardLength)
        scores = .allocate(capacity: self.contextLength * model.threadCount)
        logits = .allocate(capacity: configuration.vocabularySize)
        let widest = max(width, configuration.feedForwardLength, configuration.queryDimension)
        quantized = QuantizedVector(capacity: widest)
        batchQuantized = QuantizedVector(capacity: Self.batchSize * widest)
        logits.initialize(repeating: 0)
        // As llama.cpp chooses them: the long factors for a context past the original length.
        let factors = model.ropeFrequencyFactors
            ?? model.longContextRopeFactors.map { contextLength > (configuration.originalContextLength ?? configuration.contextLength) ? $0.long : $0.short }
        func frequencies(base: Float) -> [Float] {
            (0..<configuration.headDimension / 2).map { index in
                1 / powf(base, Float(2 * index) / Float(configuration.headDimension)) / (factors?[index] ?? 1)
            }
        }
        ropeFrequencies = frequencies(base: configuration.ropeBase)
        localRopeFrequencies = frequencies(base: configuration.traits.localRopeBase ?? configuration.ropeBase)
    }

    deinit {
        keys.deallocate()
        values.deallocate()
        for buffer in [hiddens, normeds, queries, newKeys, newValues, attentions, projections, gates, ups, scores] { buffer.deallocate() }
        logits.deallocate()
        quantized.deallocate()
        batchQuantized.deallocate()
    }

    /// Drops the cache after `count` positions, so that evaluation continues from there.
    public func truncate(to count: Int) {
        position = max(0, min(count, position))
    }

    /// Runs `tokens` through the model, appending them to the cache; ``logits`` then holds the
    /// logits that follow the last one.
    public func evaluate(_ tokens: [Int32]) throws(InferenceError) {
        guard position + tokens.count <= contextLength else {
            throw .contextFull(needed: tokens.count, available: contextLength - position)
        }
        for token in tokens {
            guard token >= 0, Int(token) < model.configuration.vocabularySize else { throw .invalidToken(token) }
        }
        // Several tokens go through in batches; attention sums as llama.cpp's would for the batch
        // it reads them in.
        var start = 0
        while start < tokens.count {
            let end = min(start + Self.batchSize, tokens.count)
            let roundingStart = start / Self.roundingBatch * Self.roundingBatch
            let roundingCount = min(tokens.count, roundingStart + Self.roundingBatch) - roundingStart
            let halfSums = model.roundsAsLlamaCpp && roundingCount < Self.floatSumsBatch
            forward(tokens[start..<end], halfSums: halfSums, computingLogits: end == tokens.count)
            start = end
        }
    }

    /// The embedding of `token`, scaled as the architecture wants.
    private func embed(_ token: Int32, into output: UnsafeMutablePointer<Float>) {
        let width = model.configuration.embeddingLength
        model.embeddings.row(Int(token), into: output)
        if model.configuration.traits.scalesEmbeddings {
            let scale = Float(width).squareRoot()
            for index in 0..<width { output[index] *= scale }
        }
    }

    /// What happens to one position's query, key and value between their projections and
    /// attention: biases, per-head norms, rotary embeddings.
    private func prepare(
        query: UnsafeMutablePointer<Float>, key: UnsafeMutablePointer<Float>, value: UnsafeMutablePointer<Float>, layer: LlamaModel.Layer,
        layerIndex: Int, at position: Int
    ) {
        let configuration = model.configuration
        let head = configuration.headDimension
        func add(_ bias: UnsafeBufferPointer<Float>?, to vector: UnsafeMutablePointer<Float>) {
            guard let bias else { return }
            for index in bias.indices { vector[index] += bias[index] }
        }
        add(layer.queryBias, to: query)
        add(layer.keyBias, to: key)
        add(layer.valueBias, to: value)
        if let queryNorm = layer.queryNorm, let keyNorm = layer.keyNorm {
            for index in 0..<configuration.headCount {
                rmsNorm(query + index * head, queryNorm, into: query + index * head, count: head, epsilon: configuration.normEpsilon)
            }
            for index in 0..<configuration.keyValueHeadCount {
                rmsNorm(key + index * head, keyNorm, into: key + index * head, count: head, epsilon: configuration.normEpsilon)
            }
        }
        let frequencies = configuration.isSlidingWindowLayer(layerIndex) ? localRopeFrequencies : ropeFrequencies
        rotate(query, heads: configuration.headCount, at: position, frequencies: frequencies)
        rotate(key, heads: configuration.keyValueHeadCount, at: position, frequencies: frequencies)
    }

    /// Adds a sublayer's output to the residual stream, normalized first when the architecture
    /// wants it (`norm`).
    private func addToResidual(_ output: UnsafeMutablePointer<Float>, norm: UnsafeBufferPointer<Float>?, into residual: UnsafeMutablePointer<Float>) {
        let configuration = model.configuration
        let width = configuration.embeddingLength
        if let norm { rmsNorm(output, norm, into: output, count: width, epsilon: configuration.normEpsilon) }
        for index in 0..<width { residual[index] += output[index] }
    }

    /// `gate = activation(gate) × up`, element by element.
    private func activate(_ gate: UnsafeMutablePointer<Float>, _ up: UnsafePointer<Float>, count: Int) {
        switch model.configuration.traits.activation {
        case .silu:
            for index in 0..<count {
                let g = gate[index]
                gate[index] = g / (1 + expf(-g)) * up[index]
            }
        case .geluTanh:
            // As llama.cpp computes it with the integer kernels; in floats with float products.
            guard !model.roundsAsLlamaCpp else { return GELU.gateThroughHalves(gate, up, count: count) }
            for index in 0..<count { gate[index] = GELU.value(gate[index]) * up[index] }
        }
    }

    /// The logits after the hidden state `hidden`.
    private func computeLogits(after hidden: UnsafePointer<Float>) {
        guard let logitsBase = logits.baseAddress else { return }
        let configuration = model.configuration
        rmsNorm(hidden, model.outputNorm, into: normeds, count: configuration.embeddingLength, epsilon: configuration.normEpsilon)
        quantized.load(normeds, count: configuration.embeddingLength)
        multiply(model.output, into: logitsBase)
        if let cap = configuration.finalLogitSoftCap {
            for index in 0..<configuration.vocabularySize { logitsBase[index] = cap * tanhf(logitsBase[index] / cap) }
        }
    }

    /// Attention of one position's query over the cached keys and values up to `last` (within
    /// the sliding window on the layers that have one), with room for its scores in `scores`; its
    /// sums in 16 bits or in floats (`halfSums`) as llama.cpp's are for the batch.
    private func attend(
        _ query: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, layerIndex: Int, upTo last: Int, halfSums: Bool,
        scores: UnsafeMutablePointer<Float>
    ) {
        let configuration = model.configuration
        let headDimension = configuration.headDimension
        let kvDimension = configuration.keyValueDimension
        let group = configuration.headCount / configuration.keyValueHeadCount
        var first = 0
        if let window = configuration.slidingWindow, configuration.isSlidingWindowLayer(layerIndex) { first = max(0, last - window + 1) }
        let base = layerIndex * contextLength * kvDimension + first * kvDimension
        let attend = model.kernelTable.pointee.attend
        for head in 0..<configuration.headCount {
            let kvOffset = base + (head / group) * headDimension
            attend(
                query + head * headDimension, keys + kvOffset, values + kvOffset, kvDimension, last + 1 - first, headDimension,
                configuration.attentionScale, halfSums ? 1 : 0, scores, output + head * headDimension)
        }
    }

    /// Runs `tokens` through every layer at their positions, one after another in the cache: a
    /// token being decoded alone (its products through the one-vector kernels, its work on the
    /// calling thread), or a batch whose weight rows are each decoded once for all its tokens,
    /// the work of each position shared across the threads. Attention sums in 16 bits when
    /// `halfSums`, else in floats.
    private func forward(_ tokens: ArraySlice<Int32>, halfSums: Bool, computingLogits: Bool) {
        let configuration = model.configuration
        let count = tokens.count
        let width = configuration.embeddingLength
        let queryDimension = configuration.queryDimension
        let kvDimension = configuration.keyValueDimension
        let feedForward = configuration.feedForwardLength
        let epsilon = configuration.normEpsilon
        for (offset, token) in tokens.enumerated() { embed(token, into: hiddens + offset * width) }
        // The work of each position: in place for one, in shares of the batch across the threads.
        func forEachPosition(_ body: (Int) -> Void) {
            guard count > 1 else { return body(0) }
            model.parallelize(count) { _, offsets in
                for offset in offsets { body(offset) }
            }
        }
        let threads = model.threadCount
        for (layerIndex, layer) in model.layers.enumerated() {
            let layerBase = layerIndex * contextLength * kvDimension
            forEachPosition { offset in
                rmsNorm(hiddens + offset * width, layer.attentionNorm, into: normeds + offset * width, count: width, epsilon: epsilon)
            }
            load(normeds, positions: count, width: width)
            multiply(layer.query, positions: count, into: queries)
            multiply(layer.key, positions: count, into: newKeys)
            multiply(layer.value, positions: count, into: newValues)
            forEachPosition { offset in
                let at = position + offset
                prepare(
                    query: queries + offset * queryDimension, key: newKeys + offset * kvDimension, value: newValues + offset * kvDimension,
                    layer: layer, layerIndex: layerIndex, at: at)
                guided_halves_from_floats(newKeys + offset * kvDimension, kvDimension, keys + layerBase + at * kvDimension)
                guided_halves_from_floats(newValues + offset * kvDimension, kvDimension, values + layerBase + at * kvDimension)
            }
            if count == 1 {
                attend(queries, into: attentions, layerIndex: layerIndex, upTo: position, halfSums: halfSums, scores: scores)
            } else {
                // Later positions attend to more: each thread takes every `threads`-th position.
                model.parallelize(threads) { chunk, _ in
                    for offset in stride(from: chunk, to: count, by: threads) {
                        attend(
                            queries + offset * queryDimension, into: attentions + offset * queryDimension, layerIndex: layerIndex,
                            upTo: position + offset, halfSums: halfSums, scores: scores + chunk * contextLength)
                    }
                }
            }
            load(attentions, positions: count, width: queryDimension)
            multiply(layer.attentionOutput, positions: count, into: projections)
            forEachPosition { offset in
                addToResidual(projections + offset * width, norm: layer.postAttentionNorm, into: hiddens + offset * width)
                rmsNorm(hiddens + offset * width, layer.feedForwardNorm, into: normeds + offset * width, count: width, epsilon: epsilon)
            }
            load(normeds, positions: count, width: width)
            multiply(layer.gate, positions: count, into: gates)
            multiply(layer.up, positions: count, into: ups)
            forEachPosition { offset in
                activate(gates + offset * feedForward, ups + offset * feedForward, count: feedForward)
            }
            load(gates, positions: count, width: feedForward)
            multiply(layer.down, positions: count, into: projections)
            forEachPosition { offset in
                addToResidual(projections + offset * width, norm: layer.postFeedForwardNorm, into: hiddens + offset * width)
            }
        }
        position += count
        if computingLogits { computeLogits(after: hiddens + (count - 1) * width) }
    }

    /// Puts the inputs of the next products, `positions` rows of `width`, in the forms their
    /// weights take: into ``quantized`` for one position, ``batchQuantized`` for a batch.
    private func load(_ inputs: UnsafePointer<Float>, positions: Int, width: Int) {
        if positions == 1 {
            quantized.load(inputs, count: width)
        } else {
            batchQuantized.load(inputs, count: positions * width)
        }
    }

    /// `outputs[t] = matrix × inputs[t]` for the `positions` inputs last loaded.
    private func multiply(_ matrix: WeightMatrix, positions: Int, into outputs: UnsafeMutablePointer<Float>) {
        if positions == 1 {
            multiply(matrix, into: outputs)
        } else {
            multiply(matrix, batchOf: positions, into: outputs)
        }
    }

    /// `output = matrix × input` for the input loaded in ``quantized``, put in the form the
    /// matrix's products take first.
    private func multiply(_ matrix: WeightMatrix, into output: UnsafeMutablePointer<Float>) {
        quantized.prepare(model.activationFormat(of: matrix), kernels: model.kernelTable)
        model.multiply(matrix, quantized, into: output)
    }

    /// `outputs[t] = matrix × inputs[t]` for the batch of `count` inputs loaded in
    /// ``batchQuantized``: through the integer kernels where the matrix has them, else in floats
    /// (rounded to 16 bits for 16-bit weights), each row decoded once for the whole batch.
    private func multiply(_ matrix: WeightMatrix, batchOf count: Int, into outputs: UnsafeMutablePointer<Float>) {
        let format = model.activationFormat(of: matrix)
        batchQuantized.prepare(format, kernels: model.kernelTable, split: model.parallelize)
        if format.isQuantized {
            model.multiply(matrix, batchQuantized, count: count, into: outputs)
        } else {
            model.multiply(matrix, batch: batchQuantized.original, count: count, into: outputs)
        }
    }

    private func rmsNorm(_ input: UnsafePointer<Float>, _ weight: UnsafeBufferPointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int, epsilon: Float) {
        // The squares summed in doubles, as llama.cpp sums them.
        var sum: Double = 0
        for index in 0..<count { sum += Double(input[index] * input[index]) }
        let factor = 1 / sqrtf(Float(sum / Double(count)) + epsilon)
        for index in 0..<count { output[index] = input[index] * factor * weight[index] }
    }

    /// Rotary embeddings as llama.cpp applies them to the architecture: adjacent pairs rotate, or
    /// each element with the one half a head away.
    private func rotate(_ vector: UnsafeMutablePointer<Float>, heads: Int, at position: Int, frequencies: [Float]) {
        let headDimension = model.configuration.headDimension
        let halves = model.configuration.traits.rotaryLayout == .halves
        let position = Float(position)
        for (pair, frequency) in frequencies.enumerated() {
            let angle = position * frequency
            let cosine = cosf(angle)
            let sine = sinf(angle)
            let first = halves ? pair : 2 * pair
            let second = halves ? pair + headDimension / 2 : 2 * pair + 1
            for head in 0..<heads {
                let base = vector + head * headDimension
                let x0 = base[first]
                let x1 = base[second]
                base[first] = x0 * cosine - x1 * sine
                base[second] = x0 * sine + x1 * cosine
            }
        }
    }
}
