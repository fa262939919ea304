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
