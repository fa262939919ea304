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
    /// One position's key and value, before they go into the cache.
    private let key: UnsafeMutablePointer<Float>
    private let value: UnsafeMutablePointer<Float>
    private let hidden: UnsafeMutablePointer<Float>
    private let normed: UnsafeMutablePointer<Float>
    private let query: UnsafeMutablePointer<Float>
    private let attention: UnsafeMutablePointer<Float>
    private let projected: UnsafeMutablePointer<Float>
    private let gate: UnsafeMutablePointer<Float>
    private let up: UnsafeMutablePointer<Float>
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
        key = .allocate(capacity: configuration.keyValueDimension)
        value = .allocate(capacity: configuration.keyValueDimension)
        let width = configuration.embeddingLength
        hidden = .allocate(capacity: width)
        normed = .allocate(capacity: width)
        query = .allocate(capacity: configuration.queryDimension)
        attention = .allocate(capacity: configuration.queryDimension)
        projected = .allocate(capacity: width)
        gate = .allocate(capacity: configuration.feedForwardLength)
        up = .allocate(capacity: configuration.feedForwardLength)
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
        for buffer in [key, value, hidden, normed, query, attention, projected, gate, up, scores] { buffer.deallocate() }
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
        // Several tokens go through in batches; one token at a time uses the decode path.
        var start = 0
        while start < tokens.count {
            let end = min(start + Self.batchSize, tokens.count)
            let roundingStart = start / Self.roundingBatch * Self.roundingBatch
            let roundingCount = min(tokens.count, roundingStart + Self.roundingBatch) - roundingStart
            if end - start == 1 && roundingCount == 1 {
                step(tokens[start], computingLogits: end == tokens.count)
            } else {
                prefill(tokens[start..<end], sumsInFloats: roundingCount >= Self.floatSumsBatch, computingLogits: end == tokens.count)
            }
            start = end
        }
    }

    private func step(_ token: Int32, computingLogits: Bool) {
        let configuration = model.configuration
        let width = configuration.embeddingLength
        let kvDimension = configuration.keyValueDimension
        embed(token, into: hidden)
        for (layerIndex, layer) in model.layers.enumerated() {
            let cacheRow = layerIndex * contextLength * kvDimension + position * kvDimension
            rmsNorm(hidden, layer.attentionNorm, into: normed, count: width, epsilon: configuration.normEpsilon)
            quantized.load(normed, count: width)
            multiply(layer.query, into: query)
            multiply(layer.key, into: key)
            multiply(layer.value, into: value)
            prepare(query: query, key: key, value: value, layer: layer, layerIndex: layerIndex, at: position)
            guided_halves_from_floats(key, kvDimension, keys + cacheRow)
            guided_halves_from_floats(value, kvDimension, values + cacheRow)
            attend(query, into: attention, layerIndex: layerIndex, upTo: position, halfSums: model.roundsAsLlamaCpp, scores: scores)
            quantized.load(attention, count: configuration.queryDimension)
            multiply(layer.attentionOutput, into: projected)
            addToResidual(projected, norm: layer.postAttentionNorm, into: hidden)
            rmsNorm(hidden, layer.feedForwardNorm, into: normed, count: width, epsilon: configuration.normEpsilon)
            quantized.load(normed, count: width)
            multiply(layer.gate, into: gate)
            multiply(layer.up, into: up)
            activate(gate, up, count: configuration.feedForwardLength)
            quantized.load(gate, count: configuration.feedForwardLength)
            multiply(layer.down, into: projected)
            addToResidual(projected, norm: layer.postFeedForwardNorm, into: hidden)
        }
        position += 1
        computeLogits(computingLogits)
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

    /// The logits after the hidden state, when asked.
    private func computeLogits(_ asked: Bool) {
        guard asked, let logitsBase = logits.baseAddress else { return }
        let configuration = model.configuration
        rmsNorm(hidden, model.outputNorm, into: normed, count: configuration.embeddingLength, epsilon: configuration.normEpsilon)
        quantized.load(normed, count: configuration.embeddingLength)
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

    /// Runs several tokens at once: each weight row is decoded once for all of them. Attention
    /// sums in floats when `sumsInFloats`, else as llama.cpp does for a small batch.
    private func prefill(_ tokens: ArraySlice<Int32>, sumsInFloats: Bool, computingLogits: Bool) {
        let configuration = model.configuration
        let count = tokens.count
        let width = configuration.embeddingLength
        let queryDimension = configuration.queryDimension
        let kvDimension = configuration.keyValueDimension
        let feedForward = configuration.feedForwardLength
        let hiddens = UnsafeMutablePointer<Float>.allocate(capacity: count * width)
        let normeds = UnsafeMutablePointer<Float>.allocate(capacity: count * width)
        let queries = UnsafeMutablePointer<Float>.allocate(capacity: count * queryDimension)
        let attentions = UnsafeMutablePointer<Float>.allocate(capacity: count * queryDimension)
        let projections = UnsafeMutablePointer<Float>.allocate(capacity: count * width)
        let newKeys = UnsafeMutablePointer<Float>.allocate(capacity: count * kvDimension)
        let newValues = UnsafeMutablePointer<Float>.allocate(capacity: count * kvDimension)
        let gates = UnsafeMutablePointer<Float>.allocate(capacity: count * feedForward)
        let ups = UnsafeMutablePointer<Float>.allocate(capacity: count * feedForward)
        defer {
            for buffer in [hiddens, normeds, queries, attentions, projections, newKeys, newValues, gates, ups] { buffer.deallocate() }
        }
        for (offset, token) in tokens.enumerated() { embed(token, into: hiddens + offset * width) }
        // The work of each position, in shares of the batch across the threads.
        func forEachPosition(_ body: (Int) -> Void) {
            model.parallelize(count) { _, offsets in
                for offset in offsets { body(offset) }
            }
        }
        let threads = model.threadCount
        for (layerIndex, layer) in model.layers.enumerated() {
            let layerBase = layerIndex * contextLength * kvDimension
            forEachPosition { offset in
                rmsNorm(hiddens + offset * width, layer.attentionNorm, into: normeds + offset * width, count: width, epsilon: configuration.normEpsilon)
            }
            batchQuantized.load(normeds, count: count * width)
            multiply(layer.query, batchOf: count, into: queries)
            multiply(layer.key, batchOf: count, into: newKeys)
            multiply(layer.value, batchOf: count, into: newValues)
            forEachPosition { offset in
                let at = position + offset
                prepare(
                    query: queries + offset * queryDimension, key: newKeys + offset * kvDimension, value: newValues + offset * kvDimension,
                    layer: layer, layerIndex: layerIndex, at: at)
                guided_halves_from_floats(newKeys + offset * kvDimension, kvDimension, keys + layerBase + at * kvDimension)
                guided_halves_from_floats(newValues + offset * kvDimension, kvDimension, values + layerBase + at * kvDimension)
            }
            // Later positions attend to more: each thread takes every `threads`-th position.
            model.parallelize(threads) { chunk, _ in
                for offset in stride(from: chunk, to: count, by: threads) {
                    attend(
                        queries + offset * queryDimension, into: attentions + offset * queryDimension, layerIndex: layerIndex,
                        upTo: position + offset, halfSums: model.roundsAsLlamaCpp && !sumsInFloats, scores: scores + chunk * contextLength)
                }
            }
            batchQuantized.load(attentions, count: count * queryDimension)
            multiply(layer.attentionOutput, batchOf: count, into: projections)
            forEachPosition { offset in
                addToResidual(projections + offset * width, norm: layer.postAttentionNorm, into: hiddens + offset * width)
                rmsNorm(hiddens + offset * width, layer.feedForwardNorm, into: normeds + offset * width, count: width, epsilon: configuration.normEpsilon)
            }
            batchQuantized.load(normeds, count: count * width)
            multiply(layer.gate, batchOf: count, into: gates)
            multiply(layer.up, batchOf: count, into: ups)
            forEachPosition { offset in
                activate(gates + offset * feedForward, ups + offset * feedForward, count: feedForward)
            }
            batchQuantized.load(gates, count: count * feedForward)
            multiply(layer.down, batchOf: count, into: projections)
            forEachPosition { offset in
                addToResidual(projections + offset * width, norm: layer.postFeedForwardNorm, into: hiddens + offset * width)
            }
        }
        position += count
        hidden.update(from: hiddens + (count - 1) * width, count: width)
        computeLogits(computingLogits)
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
