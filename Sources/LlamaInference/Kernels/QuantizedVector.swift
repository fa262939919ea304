import GuidedKernels

/// The input of matrix products in the form the weights take it (``ActivationFormat``): quantized
/// to 8 bits per element in blocks of 32 (a 16-bit scale per block, the exact sums of the block
/// and of its first half for the offset terms of unsigned codes, the block's sum in 16 bits for
/// Q4_1's and Q5_1's minimums, and its integer sum for the K-quants' minimums), with one scale per 256 elements for the K-quants, or floats
/// rounded to 16 bits, as llama.cpp prepares them. Made once per input and format, one vector or
/// a batch back to back.
struct QuantizedVector: @unchecked Sendable {
    let values: UnsafeMutablePointer<Int8>
    let scales: UnsafeMutablePointer<Float>
    let sums: UnsafeMutablePointer<Float>
    let halfSums: UnsafeMutablePointer<Float>
    let roundedSums: UnsafeMutablePointer<Float>
    let blockSums: UnsafeMutablePointer<Int32>
    /// The input in floats, for weight types without an integer kernel: as given, or rounded.
    private(set) var original: UnsafePointer<Float>
    /// The input rounded to 16-bit floats, made on first use.
    private var rounded: UnsafeMutablePointer<Float>?
    let capacity: Int
    /// The input being prepared, and the format it is in now (`nil` before the first product).
    private var input: UnsafePointer<Float>
    private var count = 0
    private(set) var format: ActivationFormat?

    init(capacity: Int) {
        self.capacity = capacity
        values = .allocate(capacity: capacity)
        scales = .allocate(capacity: (capacity + 31) / 32)
        sums = .allocate(capacity: (capacity + 31) / 32)
        halfSums = .allocate(capacity: (capacity + 31) / 32)
        roundedSums = .allocate(capacity: (capacity + 31) / 32)
        blockSums = .allocate(capacity: (capacity + 31) / 32)
        original = UnsafePointer(scales)
        input = original
    }

    /// The vectors in the form the kernels take.
    var vectors: GuidedQuantizedVectors {
        GuidedQuantizedVectors(values: values, scales: scales, sums: sums, halfSums: halfSums, roundedSums: roundedSums, blockSums: blockSums)
    }

    func deallocate() {
        values.deallocate()
        scales.deallocate()
        sums.deallocate()
        halfSums.deallocate()
        roundedSums.deallocate()
        blockSums.deallocate()
        rounded?.deallocate()
    }

    /// Quantizes `count` floats (a multiple of 32) with `kernels`, in blocks of 32.
    mutating func quantize(_ input: UnsafePointer<Float>, count: Int, kernels: UnsafePointer<GuidedKernelTable>) {
        load(input, count: count)
        prepare(.blocks32, kernels: kernels)
    }

    /// Takes `count` floats (a multiple of 32, and of 256 for ``ActivationFormat/blocks256``) as
    /// the input of the next products, forgetting the earlier input.
    mutating func load(_ input: UnsafePointer<Float>, count: Int) {
        self.input = input
        self.count = count
        original = input
        format = nil
    }

    /// Runs `body(chunk, range)` for shares of `0..<count` that together cover it, and returns when
    /// all are done: on the caller's thread alone, or spread over threads.
    typealias Splitter = (_ count: Int, _ body: (Int, Range<Int>) -> Void) -> Void

    /// How many elements an input holds before its preparation is split across threads.
    private static let splitThreshold = 8192

    /// Puts the input in `format`, unless it is in it already; a long input (a batch) is prepared
    /// in shares by `split`.
    mutating func prepare(_ format: ActivationFormat, kernels: UnsafePointer<GuidedKernelTable>, split: Splitter? = nil) {
        guard format != self.format else { return }
        self.format = format
        if format == .float {
            original = input
            return
        }
        let input = input, count = count, vectors = vectors
        var target: UnsafeMutablePointer<Float>?
        if !format.isQuantized {
            let buffer = rounded ?? .allocate(capacity: capacity)
            rounded = buffer
            original = UnsafePointer(buffer)
            target = buffer
        }
        // Shares of whole blocks, of the size the format quantizes together.
        let unit = switch format {
        case .blocks32: 32
        case .blocks256: 256
        case .half, .bfloat, .float: 1
        }
        let prepareShare = { (_: Int, units: Range<Int>) in
            let start = units.lowerBound * unit, length = units.count * unit
            guard length > 0 else { return }
            let share = GuidedQuantizedVectors(
                values: vectors.values + start, scales: vectors.scales + start / 32, sums: vectors.sums + start / 32,
                halfSums: vectors.halfSums + start / 32, roundedSums: vectors.roundedSums + start / 32, blockSums: vectors.blockSums + start / 32)
            switch format {
            case .blocks32: kernels.pointee.quantize(input + start, length, share)
            case .blocks256: guided_quantize_blocks256(input + start, length, share)
            case .half, .bfloat:
                guard let target else { return }
                let round = format == .half ? ActivationFormat.roundedToHalf : ActivationFormat.roundedToBFloat
                for index in start..<start + length { target[index] = round(input[index]) }
            case .float: break
            }
        }
        if let split, count >= Self.splitThreshold {
            split(count / unit, prepareShare)
        } else {
            prepareShare(0, 0..<count / unit)
        }
    }
}
