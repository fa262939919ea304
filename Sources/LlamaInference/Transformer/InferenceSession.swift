import Foundation

/// One sequence running through a ``LlamaModel``: its KV cache and scratch buffers. Feed tokens
/// with ``evaluate(_:)`` and read the logits of the last one; ``truncate(to:)`` drops the end of
/// the cache so that a shared prefix is computed once.
public final class InferenceSession {
    public let model: LlamaModel
    /// How many positions the cache holds.
    public let contextLength: Int
    /// How many positions are in the cache.
    public private(set) var position = 0

    private let keys: UnsafeMutablePointer<Float>
    private let values: UnsafeMutablePointer<Float>
    private let hidden: UnsafeMutablePointer<Float>
    private let normed: UnsafeMutablePointer<Float>
    private let query: UnsafeMutablePointer<Float>
    private let attention: UnsafeMutablePointer<Float>
    private let projected: UnsafeMutablePointer<Float>
    private let gate: UnsafeMutablePointer<Float>
    private let up: UnsafeMutablePointer<Float>
    private let scores: UnsafeMutablePointer<Float>
    private let ropeFrequencies: [Float]
    /// The input of the current matrix products, quantized.
    private var quantized: QuantizedVector
    /// The inputs of a batch's matrix products, quantized.
    private var batchQuantized: QuantizedVector
    /// How many tokens a prefill batch holds.
    public static let batchSize = 64

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
        hidden = .allocate(capacity: width)
        normed = .allocate(capacity: width)
        query = .allocate(capacity: width)
        attention = .allocate(capacity: width)
        projected = .allocate(capacity: width)
        gate = .allocate(capacity: configuration.feedForwardLength)
        up = .allocate(capacity: configuration.feedForwardLength)
        scores = .allocate(capacity: self.contextLength)
        logits = .allocate(capacity: configuration.vocabularySize)
        quantized = QuantizedVector(capacity: max(width, configuration.feedForwardLength))
        batchQuantized = QuantizedVector(capacity: Self.batchSize * max(width, configuration.feedForwardLength))
        logits.initialize(repeating: 0)
        let half = configuration.headDimension / 2
        ropeFrequencies = (0..<half).map { index in
            1 / powf(configuration.ropeBase, Float(2 * index) / Float(configuration.headDimension))
        }
    }

    deinit {
        for buffer in [keys, values, hidden, normed, query, attention, projected, gate, up, scores] { buffer.deallocate() }
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
            if end - start == 1 {
                step(tokens[start], computingLogits: end == tokens.count)
            } else {
                prefill(tokens[start..<end], computingLogits: end == tokens.count)
            }
            start = end
        }
    }

    private func step(_ token: Int32, computingLogits: Bool) {
        let configuration = model.configuration
        let width = configuration.embeddingLength
        let headDimension = configuration.headDimension
        let kvDimension = configuration.keyValueDimension
        model.embeddings.row(Int(token), into: hidden)
        for (layerIndex, layer) in model.layers.enumerated() {
            let layerBase = layerIndex * contextLength * kvDimension
            let keyRow = keys + layerBase + position * kvDimension
            let valueRow = values + layerBase + position * kvDimension
            rmsNorm(hidden, layer.attentionNorm, into: normed, count: width, epsilon: configuration.normEpsilon)
            quantized.quantize(normed, count: width, kernels: model.kernelTable)
            model.multiply(layer.query, quantized, into: query)
            model.multiply(layer.key, quantized, into: keyRow)
            model.multiply(layer.value, quantized, into: valueRow)
            rotate(query, heads: configuration.headCount, headDimension: headDimension, at: position)
            rotate(keyRow, heads: configuration.keyValueHeadCount, headDimension: headDimension, at: position)
            attend(query, into: attention, layerBase: layerBase, upTo: position)
            quantized.quantize(attention, count: width, kernels: model.kernelTable)
            model.multiply(layer.attentionOutput, quantized, into: projected)
            for index in 0..<width { hidden[index] += projected[index] }
            rmsNorm(hidden, layer.feedForwardNorm, into: normed, count: width, epsilon: configuration.normEpsilon)
            quantized.quantize(normed, count: width, kernels: model.kernelTable)
            model.multiply(layer.gate, quantized, into: gate)
            model.multiply(layer.up, quantized, into: up)
            for index in 0..<configuration.feedForwardLength {
                let g = gate[index]
                gate[index] = g / (1 + expf(-g)) * up[index]
            }
            quantized.quantize(gate, count: configuration.feedForwardLength, kernels: model.kernelTable)
            model.multiply(layer.down, quantized, into: projected)
            for index in 0..<width { hidden[index] += projected[index] }
        }
        position += 1
        computeLogits(computingLogits)
    }

    /// The logits after the hidden state, when asked.
    private func computeLogits(_ asked: Bool) {
        guard asked, let logitsBase = logits.baseAddress else { return }
        let configuration = model.configuration
        rmsNorm(hidden, model.outputNorm, into: normed, count: configuration.embeddingLength, epsilon: configuration.normEpsilon)
        quantized.quantize(normed, count: configuration.embeddingLength, kernels: model.kernelTable)
        model.multiply(model.output, quantized, into: logitsBase)
    }

    /// Attention of one position's query over the cached keys and values up to `last`.
    private func attend(_ query: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, layerBase: Int, upTo last: Int) {
        let configuration = model.configuration
        let headDimension = configuration.headDimension
        let kvDimension = configuration.keyValueDimension
        let group = configuration.headCount / configuration.keyValueHeadCount
        let scale = 1 / sqrtf(Float(headDimension))
        let attend = model.kernelTable.pointee.attend
        for head in 0..<configuration.headCount {
            let kvOffset = layerBase + (head / group) * headDimension
            attend(
                query + head * headDimension, keys + kvOffset, values + kvOffset, kvDimension, last + 1, headDimension, scale, scores,
                output + head * headDimension)
        }
    }

    /// Runs several tokens at once: each weight row is decoded once for all of them.
    private func prefill(_ tokens: ArraySlice<Int32>, computingLogits: Bool) {
        let configuration = model.configuration
        let count = tokens.count
        let width = configuration.embeddingLength
        let kvDimension = configuration.keyValueDimension
        let feedForward = configuration.feedForwardLength
        let hiddens = UnsafeMutablePointer<Float>.allocate(capacity: count * width)
        let normeds = UnsafeMutablePointer<Float>.allocate(capacity: count * width)
        let queries = UnsafeMutablePointer<Float>.allocate(capacity: count * width)
        let attentions = UnsafeMutablePointer<Float>.allocate(capacity: count * width)
        let projections = UnsafeMutablePointer<Float>.allocate(capacity: count * width)
        let newKeys = UnsafeMutablePointer<Float>.allocate(capacity: count * kvDimension)
        let newValues = UnsafeMutablePointer<Float>.allocate(capacity: count * kvDimension)
        let gates = UnsafeMutablePointer<Float>.allocate(capacity: count * feedForward)
        let ups = UnsafeMutablePointer<Float>.allocate(capacity: count * feedForward)
        defer {
            for buffer in [hiddens, normeds, queries, attentions, projections, newKeys, newValues, gates, ups] { buffer.deallocate() }
        }
        for (offset, token) in tokens.enumerated() { model.embeddings.row(Int(token), into: hiddens + offset * width) }
        for (layerIndex, layer) in model.layers.enumerated() {
            let layerBase = layerIndex * contextLength * kvDimension
            for offset in 0..<count {
                rmsNorm(hiddens + offset * width, layer.attentionNorm, into: normeds + offset * width, count: width, epsilon: configuration.normEpsilon)
            }
            multiply(layer.query, batch: normeds, count: count, into: queries)
            multiply(layer.key, batch: normeds, count: count, into: newKeys)
            multiply(layer.value, batch: normeds, count: count, into: newValues)
            for offset in 0..<count {
                let at = position + offset
                rotate(queries + offset * width, heads: configuration.headCount, headDimension: configuration.headDimension, at: at)
                rotate(newKeys + offset * kvDimension, heads: configuration.keyValueHeadCount, headDimension: configuration.headDimension, at: at)
                (keys + layerBase + at * kvDimension).update(from: newKeys + offset * kvDimension, count: kvDimension)
                (values + layerBase + at * kvDimension).update(from: newValues + offset * kvDimension, count: kvDimension)
            }
            for offset in 0..<count {
                attend(queries + offset * width, into: attentions + offset * width, layerBase: layerBase, upTo: position + offset)
            }
            multiply(layer.attentionOutput, batch: attentions, count: count, into: projections)
            for index in 0..<count * width { hiddens[index] += projections[index] }
            for offset in 0..<count {
                rmsNorm(hiddens + offset * width, layer.feedForwardNorm, into: normeds + offset * width, count: width, epsilon: configuration.normEpsilon)
            }
            multiply(layer.gate, batch: normeds, count: count, into: gates)
            multiply(layer.up, batch: normeds, count: count, into: ups)
            for index in 0..<count * feedForward {
                let g = gates[index]
                gates[index] = g / (1 + expf(-g)) * ups[index]
            }
            multiply(layer.down, batch: gates, count: count, into: projections)
            for index in 0..<count * width { hiddens[index] += projections[index] }
        }
        position += count
        hidden.update(from: hiddens + (count - 1) * width, count: width)
        computeLogits(computingLogits)
    }

    /// `outputs[t] = matrix × inputs[t]` for a batch: through the integer kernels where the
    /// matrix has them, each input quantized as in the single-token path, else in floats.
    private func multiply(_ matrix: WeightMatrix, batch inputs: UnsafePointer<Float>, count: Int, into outputs: UnsafeMutablePointer<Float>) {
        guard matrix.hasIntegerKernel, model.integerKernels != nil else {
            model.multiply(matrix, batch: inputs, count: count, into: outputs)
            return
        }
        batchQuantized.quantize(inputs, count: count * matrix.columns, kernels: model.kernelTable)
        model.multiply(matrix, batchQuantized, count: count, into: outputs)
    }

    private func rmsNorm(_ input: UnsafePointer<Float>, _ weight: UnsafeBufferPointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int, epsilon: Float) {
        var sum: Float = 0
        for index in 0..<count { sum += input[index] * input[index] }
        let factor = 1 / sqrtf(sum / Float(count) + epsilon)
        for index in 0..<count { output[index] = input[index] * factor * weight[index] }
    }

    /// Rotary embedding as llama.cpp applies it to this architecture: adjacent pairs rotate.
    private func rotate(_ vector: UnsafeMutablePointer<Float>, heads: Int, headDimension: Int, at position: Int) {
        let position = Float(position)
        for (pair, frequency) in ropeFrequencies.enumerated() {
            let angle = position * frequency
            let cosine = cosf(angle)
            let sine = sinf(angle)
            for head in 0..<heads {
                let base = vector + head * headDimension + 2 * pair
                let x0 = base[0]
                let x1 = base[1]
                base[0] = x0 * cosine - x1 * sine
                base[1] = x0 * sine + x1 * cosine
            }
        }
    }
}
