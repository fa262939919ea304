/// IEEE 754 half-precision numbers as stored in GGUF blocks, converted through a table.
enum HalfFloat {
    /// The `Float` of every half-precision bit pattern, in memory that lives as long as the
    /// program, read without reference counting in the kernels' inner loops.
    nonisolated(unsafe) static let table: UnsafePointer<Float> = {
        let values = UnsafeMutablePointer<Float>.allocate(capacity: 65536)
        for bits in 0...UInt16.max { values[Int(bits)] = convert(bits) }
        return UnsafePointer(values)
    }()

    @inline(__always)
    static func float(_ bits: UInt16) -> Float {
        table[Int(bits)]
    }

    private static func convert(_ bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = UInt32(bits >> 10) & 0x1F
        let mantissa = UInt32(bits & 0x3FF)
        if exponent == 0 {
            // Zero or subnormal.
            return Float(bitPattern: sign) + (sign == 0 ? 1 : -1) * Float(mantissa) * 0x1p-24
        }
        if exponent == 0x1F { return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13) }
        return Float(bitPattern: sign | (exponent + 112) << 23 | mantissa << 13)
    }
}
