import GuidedKernels

/// Activation vectors quantized to 8 bits per element in blocks of 32 (a scale per block, and the
/// exact sums of the block and of its first half for the offset terms of unsigned codes), as llama.cpp quantizes them for its
/// integer products: made once per matrix product, one vector or a batch back to back.
struct QuantizedVector: @unchecked Sendable {
    let values: UnsafeMutablePointer<Int8>
    let scales: UnsafeMutablePointer<Float>
    let sums: UnsafeMutablePointer<Float>
    let halfSums: UnsafeMutablePointer<Float>
    /// The vector it was made from, for weight types without an integer kernel.
    private(set) var original: UnsafePointer<Float>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        values = .allocate(capacity: capacity)
        scales = .allocate(capacity: (capacity + 31) / 32)
        sums = .allocate(capacity: (capacity + 31) / 32)
        halfSums = .allocate(capacity: (capacity + 31) / 32)
        original = UnsafePointer(scales)
    }

    /// The vectors in the form the kernels take.
    var vectors: GuidedQuantizedVectors {
        GuidedQuantizedVectors(values: values, scales: scales, sums: sums, halfSums: halfSums)
    }

    func deallocate() {
        values.deallocate()
        scales.deallocate()
        sums.deallocate()
        halfSums.deallocate()
    }

    /// Quantizes `count` floats (a multiple of 32) with `kernels`.
    mutating func quantize(_ input: UnsafePointer<Float>, count: Int, kernels: UnsafePointer<GuidedKernelTable>) {
        original = input
        kernels.pointee.quantize(input, count, vectors)
    }
}
