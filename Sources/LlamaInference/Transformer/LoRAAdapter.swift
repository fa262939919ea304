import GuidedKernels

/// A LoRA adapter in a GGUF file, as llama.cpp's `--lora` reads it: metadata `general.type`
/// `adapter`, `adapter.type` `lora` and `adapter.lora.alpha`, and for each matrix `NAME` of the
/// model it adapts, `NAME.lora_a` (rank rows of the matrix's columns) and `NAME.lora_b` (the
/// matrix's rows of rank elements). A product `W x` of an adapted matrix becomes
/// `W x + scale B (A x)`, with scale alpha / rank (1 when alpha is 0).
///
/// The file is checked when it is read (``init(file:)``) and against a model when the model
/// loads with it; anything that does not fit is a ``GGUFError`` naming the tensor.
public final class LoRAAdapter: @unchecked Sendable {
    /// The adapter's file, memory-mapped; it outlives every model loaded with it.
    public let file: GGUFFile
    /// The architecture the adapter was made for (`general.architecture`).
    public let architecture: String
    /// `adapter.lora.alpha`.
    public let alpha: Float
    /// The pairs of matrices, by the name of the model matrix they adapt.
    let pairs: [String: (a: WeightMatrix, b: WeightMatrix)]

    /// Reads and checks the adapter in `file`.
    public init(file: GGUFFile) throws(GGUFError) {
        self.file = file
        guard file.metadata["general.type"]?.string == "adapter" else {
            throw .wrongType(key: "general.type", expected: "'adapter' (this file is a model, not an adapter)")
        }
        guard try file.string("adapter.type") == "lora" else { throw .wrongType(key: "adapter.type", expected: "'lora'") }
        architecture = try file.string("general.architecture")
        alpha = file.metadata["adapter.lora.alpha"] == nil ? 0 : Float(try file.number("adapter.lora.alpha"))
        var pairs: [String: (a: WeightMatrix, b: WeightMatrix)] = [:]
        for tensor in file.tensors {
            guard tensor.name.hasSuffix(".lora_a") else {
                guard tensor.name.hasSuffix(".lora_b") else {
                    throw .invalidTensor(name: tensor.name, reason: "an adapter holds only NAME.lora_a and NAME.lora_b tensors")
                }
                continue
            }
            let name = String(tensor.name.dropLast(".lora_a".count))
            guard let partner = file.tensorsByName[name + ".lora_b"] else {
                throw .invalidTensor(name: tensor.name, reason: "its partner \(name).lora_b is missing")
            }
            let a = try WeightMatrix(file: file, tensor: tensor)
            let b = try WeightMatrix(file: file, tensor: partner)
            guard tensor.dimensions.count == 2, partner.dimensions.count == 2, a.rows == b.columns, a.rows > 0 else {
                throw .invalidTensor(
                    name: tensor.name, reason: "lora_a is \(a.columns)x\(a.rows) and lora_b \(b.columns)x\(b.rows): their rank (lora_a's rows, lora_b's columns) must agree")
            }
            pairs[name] = (a, b)
        }
        for tensor in file.tensors where tensor.name.hasSuffix(".lora_b") {
            guard pairs[String(tensor.name.dropLast(".lora_b".count))] != nil else {
                throw .invalidTensor(name: tensor.name, reason: "its partner \(tensor.name.dropLast(".lora_b".count)).lora_a is missing")
            }
        }
        guard !pairs.isEmpty else { throw .missingKey("tensor NAME.lora_a (the adapter adapts nothing)") }
        self.pairs = pairs
    }

    /// Reads and checks the adapter in the file at `path`.
    public convenience init(path: String) throws(GGUFError) {
        try self.init(file: try GGUFFile(path: path))
    }
}

/// The change an adapter makes to one product, decoded to floats: `scale B (A x)` added to the
/// product's output. Rows `rows` of a fused matrix (Phi-3's QKV) take their rows of B.
struct LoRAProjection: @unchecked Sendable {
    let rank: Int
    let columns: Int
    let rows: Int
    let scale: Float
    /// A's rows, `rank` of `columns` floats; B's rows, `rows` of `rank` floats.
    let a: UnsafePointer<Float>
    let b: UnsafePointer<Float>
    /// Whether llama.cpp rounds the input of A's product (and of B's) to 16 bits: it does for
    /// matrices stored in 16 bits.
    let roundsInputOfA: Bool
    let roundsInputOfB: Bool

    /// Adds the change to `output` (`rows` floats) for the input `input` (`columns` floats).
    func add(input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: columns + rank) { scratch in
            guard let base = scratch.baseAddress else { return }
            let x = roundsInputOfA ? Self.roundedToHalves(input, count: columns, into: base) : input
            let t = base + columns
            for j in 0..<rank { t[j] = WeightMatrix.dot(a + j * columns, x, count: columns) }
            if roundsInputOfB { _ = Self.roundedToHalves(t, count: rank, into: t) }
            for row in 0..<rows { output[row] += scale * WeightMatrix.dot(b + row * rank, t, count: rank) }
        }
    }

    /// `values` rounded to 16-bit floats, written to `output` (which may be `values`).
    private static func roundedToHalves(_ values: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Float>) -> UnsafePointer<Float> {
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: count) { halves in
            guard let halves = halves.baseAddress else { return }
            guided_halves_from_floats(values, count, halves)
            guided_floats_from_halves(halves, count, output)
        }
        return UnsafePointer(output)
    }
}

/// The decoded pairs of an adapter applied to a model, which own their floats.
final class AppliedAdapter: @unchecked Sendable {
    private var buffers: [UnsafeMutableBufferPointer<Float>] = []

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// The change to matrix `name` (of `rows` by `columns`), or to its rows `part` when the
    /// matrix is fused; `nil` when the adapter leaves it alone.
    func projection(
        _ name: String, of adapter: LoRAAdapter, rows: Int, columns: Int, part: Range<Int>? = nil
    ) throws(GGUFError) -> LoRAProjection? {
        guard let (a, b) = adapter.pairs[name] else { return nil }
        guard a.columns == columns, b.rows == rows else {
            throw .invalidTensor(
                name: name + ".lora_a", reason: "adapts a \(columns)x\(rows) matrix, but lora_a has \(a.columns) columns and lora_b \(b.rows) rows")
        }
        let rank = a.rows
        let part = part ?? 0..<rows
        let decodedA = UnsafeMutableBufferPointer<Float>.allocate(capacity: rank * columns)
        let decodedB = UnsafeMutableBufferPointer<Float>.allocate(capacity: part.count * rank)
        buffers += [decodedA, decodedB]
        guard let baseA = decodedA.baseAddress, let baseB = decodedB.baseAddress else { return nil }
        for row in 0..<rank { a.row(row, into: baseA + row * columns) }
        for (index, row) in part.enumerated() { b.row(row, into: baseB + index * rank) }
        let scale = adapter.alpha == 0 ? 1 : adapter.alpha / Float(rank)
        return LoRAProjection(
            rank: rank, columns: columns, rows: part.count, scale: scale, a: baseA, b: baseB,
            roundsInputOfA: a.type == .f16 || a.type == .bf16, roundsInputOfB: b.type == .f16 || b.type == .bf16)
    }
}
