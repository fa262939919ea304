/// Decodes the blocks of every computable GGML type into floats, as llama.cpp's `dequantize_row_*`
/// functions define the layouts: the path for embeddings, for the float products of batches, and
/// for weight types without an integer kernel.
enum BlockDecoder {
    /// The values of IQ4_NL's 4-bit codes.
    static let nonLinearValues: [Float] = [-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113]

    /// Decodes `count` elements (whole blocks) of `type` from `source` into `output`.
    static func decode(_ type: GGMLType, _ source: UnsafeRawPointer, count: Int, into output: UnsafeMutablePointer<Float>) {
        switch type {
        case .f32:
            output.update(from: source.assumingMemoryBound(to: Float.self), count: count)
            return
        case .f16:
            for index in 0..<count { output[index] = half(source, index * 2) }
            return
        case .bf16:
            for index in 0..<count { output[index] = Float(bitPattern: UInt32(source.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)) << 16) }
            return
        default:
            break
        }
        let blockSize = type.blockSize
        let blockBytes = type.blockBytes
        for block in 0..<count / blockSize {
            let pointer = source + block * blockBytes
            let values = output + block * blockSize
            switch type {
            case .q4_0, .q4_1: decodeQ4(pointer, hasMinimum: type == .q4_1, into: values)
            case .q5_0, .q5_1: decodeQ5(pointer, hasMinimum: type == .q5_1, into: values)
            case .q8_0:
                let scale = half(pointer, 0)
                for index in 0..<32 { values[index] = Float(pointer.load(fromByteOffset: 2 + index, as: Int8.self)) * scale }
            case .iq4_nl:
                let scale = half(pointer, 0)
                for index in 0..<16 {
                    let packed = pointer.load(fromByteOffset: 2 + index, as: UInt8.self)
                    values[index] = nonLinearValues[Int(packed & 0x0F)] * scale
                    values[index + 16] = nonLinearValues[Int(packed >> 4)] * scale
                }
            case .q2_K: decodeQ2K(pointer, into: values)
            case .q3_K: decodeQ3K(pointer, into: values)
            case .q4_K, .q5_K: decodeQ45K(pointer, hasHighBits: type == .q5_K, into: values)
            case .q6_K: decodeQ6K(pointer, into: values)
            case .f32, .f16, .bf16, .q8_1, .q8_K: values.update(repeating: 0, count: blockSize)
            }
        }
    }

    @inline(__always)
    private static func half(_ pointer: UnsafeRawPointer, _ offset: Int) -> Float {
        HalfFloat.float(pointer.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inline(__always)
    private static func byte(_ pointer: UnsafeRawPointer, _ offset: Int) -> Int {
        Int(pointer.load(fromByteOffset: offset, as: UInt8.self))
    }

    /// Q4_0 (scale; codes minus 8) and Q4_1 (scale and minimum): element `i` is the low nibble of
    /// byte `i`, element `i + 16` its high nibble.
    private static func decodeQ4(_ pointer: UnsafeRawPointer, hasMinimum: Bool, into values: UnsafeMutablePointer<Float>) {
        let scale = half(pointer, 0)
        let minimum = hasMinimum ? half(pointer, 2) : 0
        let offset = hasMinimum ? 0 : 8
        let quants = hasMinimum ? 4 : 2
        for index in 0..<16 {
            let packed = byte(pointer, quants + index)
            values[index] = Float((packed & 0x0F) - offset) * scale + minimum
            values[index + 16] = Float((packed >> 4) - offset) * scale + minimum
        }
    }

    /// Q5_0 and Q5_1: as Q4, with a fifth bit per element in a 32-bit word (bit `i` for element
    /// `i`); Q5_0's codes are offset by 16.
    private static func decodeQ5(_ pointer: UnsafeRawPointer, hasMinimum: Bool, into values: UnsafeMutablePointer<Float>) {
        let scale = half(pointer, 0)
        let minimum = hasMinimum ? half(pointer, 2) : 0
        let offset = hasMinimum ? 0 : 16
        let highOffset = hasMinimum ? 4 : 2
        let high = pointer.loadUnaligned(fromByteOffset: highOffset, as: UInt32.self)
        for index in 0..<16 {
            let packed = byte(pointer, highOffset + 4 + index)
            let low = (packed & 0x0F) | Int((high >> UInt32(index)) & 1) << 4
            let upper = (packed >> 4) | Int((high >> UInt32(index + 16)) & 1) << 4
            values[index] = Float(low - offset) * scale + minimum
            values[index + 16] = Float(upper - offset) * scale + minimum
        }
    }

    /// The 6-bit scale and minimum of sub-block `index` (of 8) of Q4_K and Q5_K, packed in 12 bytes.
    @inline(__always)
    static func scaleAndMinimum(_ scales: UnsafeRawPointer, _ index: Int) -> (scale: Int, minimum: Int) {
        if index < 4 { return (byte(scales, index) & 63, byte(scales, index + 4) & 63) }
        return (
            (byte(scales, index + 4) & 0x0F) | (byte(scales, index - 4) >> 6) << 4,
            (byte(scales, index + 4) >> 4) | (byte(scales, index) >> 6) << 4
        )
    }

    /// Q4_K (scale, minimum, 12 bytes of sub-block scales, 128 bytes of nibbles) and Q5_K (with 32
    /// bytes of fifth bits before the nibbles): sub-block `j` of 32 elements takes the low nibbles
    /// of bytes `32 (j / 2) ..<` when `j` is even, the high ones when odd, and bit `j` of the
    /// high-bit bytes.
    private static func decodeQ45K(_ pointer: UnsafeRawPointer, hasHighBits: Bool, into values: UnsafeMutablePointer<Float>) {
        let scale = half(pointer, 0)
        let minimum = half(pointer, 2)
        let scales = pointer + 4
        let highBits = pointer + 16
        let quants = pointer + (hasHighBits ? 48 : 16)
        for subBlock in 0..<8 {
            let (subScale, subMinimum) = scaleAndMinimum(scales, subBlock)
            let factor = scale * Float(subScale)
            let offset = minimum * Float(subMinimum)
            let shift = (subBlock & 1) * 4
            for index in 0..<32 {
                var code = (byte(quants, (subBlock / 2) * 32 + index) >> shift) & 0x0F
                if hasHighBits { code |= ((byte(highBits, index) >> subBlock) & 1) << 4 }
                values[subBlock * 32 + index] = factor * Float(code) - offset
            }
        }
    }

    /// Q6_K: 128 bytes of low nibbles, 64 of 2-bit high parts, 16 signed scales (one per 16
    /// elements), the scale. In each half of 128 elements, group `k` of 32 takes nibble `k / 2` of
    /// bytes `32 (k % 2) ..<` and bits `2k` of the high part; codes are offset by 32.
    private static func decodeQ6K(_ pointer: UnsafeRawPointer, into values: UnsafeMutablePointer<Float>) {
        let scale = half(pointer, 208)
        for element in 0..<256 {
            let half = element / 128
            let group = (element % 128) / 32
            let index = element % 32
            let low = (byte(pointer, half * 64 + (group % 2) * 32 + index) >> ((group / 2) * 4)) & 0x0F
            let high = (byte(pointer, 128 + half * 32 + index) >> (2 * group)) & 3
            let subScale = Float(pointer.load(fromByteOffset: 192 + element / 16, as: Int8.self))
            values[element] = scale * subScale * Float((low | high << 4) - 32)
        }
    }

    /// Q3_K: 32 bytes of third bits, 64 of 2-bit codes, 12 bytes of 6-bit scales (offset by 32,
    /// one per 16 elements), the scale. Element `e` takes bits `2 (e % 128 / 32)` of byte
    /// `32 (e / 128) + e % 32`, and bit `e / 32` of byte `e % 32` of the third bits; a clear third
    /// bit subtracts 4.
    private static func decodeQ3K(_ pointer: UnsafeRawPointer, into values: UnsafeMutablePointer<Float>) {
        let scale = half(pointer, 108)
        let scales = pointer + 96
        for element in 0..<256 {
            let index = element % 32
            let low = (byte(pointer, 32 + (element / 128) * 32 + index) >> (2 * ((element % 128) / 32))) & 3
            let third = (byte(pointer, index) >> (element / 32)) & 1
            let scaleIndex = element / 16
            let scaleLow = (byte(scales, scaleIndex % 8) >> ((scaleIndex / 8) * 4)) & 0x0F
            let scaleHigh = (byte(scales, 8 + scaleIndex % 4) >> (2 * (scaleIndex / 4))) & 3
            let subScale = Float((scaleLow | scaleHigh << 4) - 32)
            values[element] = scale * subScale * Float(low - (third == 1 ? 0 : 4))
        }
    }

    /// Q2_K: 16 bytes of 4-bit scale and minimum pairs (one per 16 elements), 64 bytes of 2-bit
    /// codes laid out as Q3_K's, the scale and the minimum.
    private static func decodeQ2K(_ pointer: UnsafeRawPointer, into values: UnsafeMutablePointer<Float>) {
        let scale = half(pointer, 80)
        let minimum = half(pointer, 82)
        for element in 0..<256 {
            let code = (byte(pointer, 16 + (element / 128) * 32 + element % 32) >> (2 * ((element % 128) / 32))) & 3
            let pair = byte(pointer, element / 16)
            values[element] = scale * Float(pair & 0x0F) * Float(code) - minimum * Float(pair >> 4)
        }
    }
}
