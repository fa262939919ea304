import Foundation
import GuidedKernels

/// Where one position of a forward pass goes: a token of one sequence, at its place in that
/// sequence's cache. Plain pointers, so that the pass reads them without reference counting.
struct SequencePosition {
    /// The sequence's cache, as ``InferenceSession/cache`` gives it.
    var cache: KeyValueCache
    var token: Int32
    /// The token's place in its sequence.
    var position: Int
    /// Whether attention sums in 16 bits (llama.cpp's rounding for the batch the token is in).
    var halfSums: Bool
}

/// Where the logits after one position of a pass go.
struct LogitTarget {
    /// The position's index in the pass.
    var row: Int
    /// Room for the vocabulary's logits.
    var destination: UnsafeMutablePointer<Float>
}

/// A sequence's keys and values at every position of every layer, in 16 bits, and the rotary
/// frequencies of its positions.
struct KeyValueCache {
    let keys: UnsafeMutablePointer<UInt16>
    let values: UnsafeMutablePointer<UInt16>
    /// How many positions each layer holds.
    let contextLength: Int
    /// The rotary frequencies of the global layers, and of the sliding-window layers.
    let ropeFrequencies: UnsafePointer<Float>
    let localRopeFrequencies: UnsafePointer<Float>
}

/// The activations of one forward pass and the algorithm that runs it: any number of positions,
/// of one sequence or of several (continuous batching), up to ``rowCapacity`` at once. Each weight
/// row is decoded once for all positions; a position's products are the same, bit for bit,
/// whether it runs alone or among others, so a sequence's logits do not depend on what it was
/// batched with.
final class ForwardPass {
    let model: LlamaModel
    /// The most positions a pass runs.
    let rowCapacity: Int
    /// The positions of the next pass, filled by the caller.
    let positions: UnsafeMutablePointer<SequencePosition>
    /// The positions whose logits the next pass computes, filled by the caller.
    let logitTargets: UnsafeMutablePointer<LogitTarget>
    private let hiddens: UnsafeMutablePointer<Float>
    private let normeds: UnsafeMutablePointer<Float>
    private let queries: UnsafeMutablePointer<Float>
    private let newKeys: UnsafeMutablePointer<Float>
    private let newValues: UnsafeMutablePointer<Float>
    private let attentions: UnsafeMutablePointer<Float>
    private let projections: UnsafeMutablePointer<Float>
    private let gates: UnsafeMutablePointer<Float>
    private let ups: UnsafeMutablePointer<Float>
    /// Attention's scores: one row of ``scoresLength`` per thread.
    private var scores: UnsafeMutablePointer<Float>
    private var scoresLength: Int
    /// The logits of a group of sequences, made on first use.
    private var groupLogits: UnsafeMutablePointer<Float>?
    /// The input of the current matrix products, in the forms their weights take it.
    private var quantized: QuantizedVector
    /// The inputs of a batch's matrix products, in the forms their weights take them.
    private var batchQuantized: QuantizedVector
    /// How many sequences' logits come from one batched product of the output matrix.
    static let logitsGroup = 8

    /// Room for `rowCapacity` positions, attending over at most `contextLength` positions.
    init(model: LlamaModel, rowCapacity: Int, contextLength: Int) {
        self.model = model
        self.rowCapacity = max(1, rowCapacity)
        let configuration = model.configuration
        let width = configuration.embeddingLength
        let rows = self.rowCapacity
        positions = .allocate(capacity: rows)
        logitTargets = .allocate(capacity: rows)
        hiddens = .allocate(capacity: rows * width)
        normeds = .allocate(capacity: rows * width)
        queries = .allocate(capacity: rows * configuration.queryDimension)
        newKeys = .allocate(capacity: rows * configuration.keyValueDimension)
        newValues = .allocate(capacity: rows * configuration.keyValueDimension)
        attentions = .allocate(capacity: rows * configuration.queryDimension)
        projections = .allocate(capacity: rows * width)
        gates = .allocate(capacity: rows * configuration.feedForwardLength)
        ups = .allocate(capacity: rows * configuration.feedForwardLength)
        scoresLength = contextLength
        scores = .allocate(capacity: contextLength * model.threadCount)
        let widest = max(width, configuration.feedForwardLength, configuration.queryDimension)
        quantized = QuantizedVector(capacity: widest)
        batchQuantized = QuantizedVector(capacity: rows * widest)
    }

    deinit {
        for buffer in [hiddens, normeds, queries, newKeys, newValues, attentions, projections, gates, ups, scores] { buffer.deallocate() }
        positions.deallocate()
        logitTargets.deallocate()
        groupLogits?.deallocate()
        quantized.deallocate()
        batchQuantized.deallocate()
    }

    /// Makes room for attention over `contextLength` positions.
    func reserve(contextLength: Int) {
        guard contextLength > scoresLength else { return }
        scores.deallocate()
        scores = .allocate(capacity: contextLength * model.threadCount)
        scoresLength = contextLength
    }

    /// Runs the first `count` of ``positions`` through every layer, writing their keys and values
    /// into their sequences' caches; then computes the logits of the first `logitCount` of
    /// ``logitTargets``. A sequence's positions must be in order; each attends to its cache up to
    /// itself, the positions before it in this pass included.
    func run(_ count: Int, logitCount: Int) {
        let configuration = model.configuration
        let width = configuration.embeddingLength
        let queryDimension = configuration.queryDimension
        let kvDimension = configuration.keyValueDimension
        let feedForward = configuration.feedForwardLength
        let epsilon = configuration.normEpsilon
        let positions = self.positions
        for offset in 0..<count { embed(positions[offset].token, into: hiddens + offset * width) }
        // The work of each position: in place for one, in shares of the batch across the threads.
        func forEachPosition(_ body: (Int) -> Void) {
            guard count > 1 else { return body(0) }
            model.parallelize(count) { _, offsets in
                for offset in offsets { body(offset) }
            }
        }
        let threads = model.threadCount
        let scoresLength = self.scoresLength
        for (layerIndex, layer) in model.layers.enumerated() {
            let layerSlice = layerIndex * kvDimension
            forEachPosition { offset in
                rmsNorm(hiddens + offset * width, layer.attentionNorm, into: normeds + offset * width, count: width, epsilon: epsilon)
            }
            load(normeds, positions: count, width: width)
            multiply(layer.query, positions: count, into: queries)
            multiply(layer.key, positions: count, into: newKeys)
            multiply(layer.value, positions: count, into: newValues)
            if layer.adapters.query != nil || layer.adapters.key != nil || layer.adapters.value != nil {
                forEachPosition { offset in
                    let input = normeds + offset * width
                    layer.adapters.query?.add(input: input, into: queries + offset * queryDimension)
                    layer.adapters.key?.add(input: input, into: newKeys + offset * kvDimension)
                    layer.adapters.value?.add(input: input, into: newValues + offset * kvDimension)
                }
            }
            forEachPosition { offset in
                let row = positions[offset]
                prepare(
                    query: queries + offset * queryDimension, key: newKeys + offset * kvDimension, value: newValues + offset * kvDimension,
                    layer: layer, layerIndex: layerIndex, row: row)
                let at = layerSlice * row.cache.contextLength + row.position * kvDimension
                guided_halves_from_floats(newKeys + offset * kvDimension, kvDimension, row.cache.keys + at)
                guided_halves_from_floats(newValues + offset * kvDimension, kvDimension, row.cache.values + at)
            }
            if count == 1 {
                attend(queries, into: attentions, layerIndex: layerIndex, row: positions[0], scores: scores)
            } else {
                // Later positions attend to more: each thread takes every `threads`-th position.
                model.parallelize(threads) { chunk, _ in
                    for offset in stride(from: chunk, to: count, by: threads) {
                        attend(
                            queries + offset * queryDimension, into: attentions + offset * queryDimension, layerIndex: layerIndex,
                            row: positions[offset], scores: scores + chunk * scoresLength)
                    }
                }
            }
            load(attentions, positions: count, width: queryDimension)
            multiply(layer.attentionOutput, positions: count, into: projections)
            forEachPosition { offset in
                layer.adapters.attentionOutput?.add(input: attentions + offset * queryDimension, into: projections + offset * width)
                addToResidual(projections + offset * width, norm: layer.postAttentionNorm, into: hiddens + offset * width)
                rmsNorm(hiddens + offset * width, layer.feedForwardNorm, into: normeds + offset * width, count: width, epsilon: epsilon)
            }
            load(normeds, positions: count, width: width)
            multiply(layer.gate, positions: count, into: gates)
            multiply(layer.up, positions: count, into: ups)
            forEachPosition { offset in
                layer.adapters.gate?.add(input: normeds + offset * width, into: gates + offset * feedForward)
                layer.adapters.up?.add(input: normeds + offset * width, into: ups + offset * feedForward)
                activate(gates + offset * feedForward, ups + offset * feedForward, count: feedForward)
            }
            load(gates, positions: count, width: feedForward)
            multiply(layer.down, positions: count, into: projections)
            forEachPosition { offset in
                layer.adapters.down?.add(input: gates + offset * feedForward, into: projections + offset * width)
                addToResidual(projections + offset * width, norm: layer.postFeedForwardNorm, into: hiddens + offset * width)
            }
        }
        var start = 0
        while start < logitCount {
            let end = min(start + Self.logitsGroup, logitCount)
            computeLogits(UnsafeBufferPointer(start: logitTargets + start, count: end - start))
            start = end
        }
    }

    /// The logits after the hidden states of `targets`' positions, through one product of the
    /// output matrix for all of them.
    private func computeLogits(_ targets: UnsafeBufferPointer<LogitTarget>) {
        let configuration = model.configuration
        let width = configuration.embeddingLength
        let vocabulary = configuration.vocabularySize
        for (index, target) in targets.enumerated() {
            rmsNorm(hiddens + target.row * width, model.outputNorm, into: normeds + index * width, count: width, epsilon: configuration.normEpsilon)
        }
        if targets.count == 1 {
            quantized.load(normeds, count: width)
            multiply(model.output, into: targets[0].destination)
        } else {
            let outputs = groupLogits ?? .allocate(capacity: Self.logitsGroup * vocabulary)
            groupLogits = outputs
            load(normeds, positions: targets.count, width: width)
            multiply(model.output, batchOf: targets.count, into: outputs)
            for (index, target) in targets.enumerated() { target.destination.update(from: outputs + index * vocabulary, count: vocabulary) }
        }
        if let adapter = model.outputAdapter {
            for (index, target) in targets.enumerated() { adapter.add(input: normeds + index * width, into: target.destination) }
        }
        if let cap = configuration.finalLogitSoftCap {
            for target in targets {
                for index in 0..<vocabulary { target.destination[index] = cap * tanhf(target.destination[index] / cap) }
            }
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
        layerIndex: Int, row: SequencePosition
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
        let frequencies = configuration.isSlidingWindowLayer(layerIndex) ? row.cache.localRopeFrequencies : row.cache.ropeFrequencies
        rotate(query, heads: configuration.headCount, at: row.position, frequencies: frequencies)
        rotate(key, heads: configuration.keyValueHeadCount, at: row.position, frequencies: frequencies)
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

    /// Attention of one position's query over its sequence's cached keys and values up to
    /// itself (within the sliding window on the layers that have one), with room for its scores
    /// in `scores`; its sums in 16 bits or in floats as llama.cpp's are for the batch.
    private func attend(
        _ query: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, layerIndex: Int, row: SequencePosition,
        scores: UnsafeMutablePointer<Float>
    ) {
        let configuration = model.configuration
        let headDimension = configuration.headDimension
        let kvDimension = configuration.keyValueDimension
        let group = configuration.headCount / configuration.keyValueHeadCount
        let last = row.position
        var first = 0
        if let window = configuration.slidingWindow, configuration.isSlidingWindowLayer(layerIndex) { first = max(0, last - window + 1) }
        let base = layerIndex * row.cache.contextLength * kvDimension + first * kvDimension
        let attend = model.kernelTable.pointee.attend
        for head in 0..<configuration.headCount {
            let kvOffset = base + (head / group) * headDimension
            attend(
                query + head * headDimension, row.cache.keys + kvOffset, row.cache.values + kvOffset, kvDimension, last + 1 - first,
                headDimension, configuration.attentionScale, row.halfSums ? 1 : 0, scores, output + head * headDimension)
        }
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
    private func rotate(_ vector: UnsafeMutablePointer<Float>, heads: Int, at position: Int, frequencies: UnsafePointer<Float>) {
        let headDimension = model.configuration.headDimension
        let halves = model.configuration.traits.rotaryLayout == .halves
        let position = Float(position)
        for pair in 0..<headDimension / 2 {
            let angle = position * frequencies[pair]
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
