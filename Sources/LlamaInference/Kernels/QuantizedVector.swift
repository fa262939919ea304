/// An activation vector quantized to 16 bits per block of 32 (a scale per block, and the block's
/// exact sum for the offset terms of Q4 weights), made once per matrix product.
struct QuantizedVector: @unchecked Sendable {
    let values: UnsafeMutablePointer<Int16>
    let scales: UnsafeMutablePointer<Float>
    let sums: UnsafeMutablePointer<Float>
    /// The vector it was made from, for weight types without an integer kernel.
    private(set) var original: UnsafePointer<Float>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        values = .allocate(capacity: capacity)
        scales = .allocate(capacity: (capacity + 31) / 32)
        sums = .allocate(capacity: (capacity + 31) / 32)
        original = UnsafePointer(scales)
    }

    private init(values: UnsafeMutablePointer<Int16>, scales: UnsafeMutablePointer<Float>, sums: UnsafeMutablePointer<Float>, original: UnsafePointer<Float>, capacity: Int) {
        self.values = values
        self.scales = scales
        self.sums = sums
        self.original = original
        self.capacity = capacity
    }

    /// The vector from element `start` on (a multiple of 32), sharing this one's memory: one of
    /// a batch of vectors quantized together.
    func suffix(from start: Int) -> QuantizedVector {
        QuantizedVector(values: values + start, scales: scales + start / 32, sums: sums + start / 32, original: original + start, capacity: capacity - start)
    }

    func deallocate() {
        values.deallocate()
        scales.deallocate()
        sums.deallocate()
    }

    /// Quantizes `count` floats (a multiple of 32).
    mutating func quantize(_ input: UnsafePointer<Float>, count: Int) {
        original = input
        for block in 0..<count / 32 {
            let x = input + block * 32
            var largest: Float = 0
            var sum: Float = 0
            for index in 0..<32 {
                largest = max(largest, abs(x[index]))
                sum += x[index]
            }
            let scale = largest / 32767
            let inverse = scale > 0 ? 1 / scale : 0
            let target = values + block * 32
            for index in 0..<32 { target[index] = Int16((x[index] * inverse).rounded()) }
            scales[block] = scale
            sums[block] = sum
        }
    }
}
