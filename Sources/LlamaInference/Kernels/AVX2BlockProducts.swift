#if GUIDED_AVX2 && arch(x86_64)
import _Builtin_intrinsics.intel

/// Row-by-vector products of Q4_0, Q4_1 and Q8_0 rows with 16-bit activations, in AVX2
/// instructions: a block's weights are widened to 16 bits and multiplied in pairs into 32-bit
/// sums (`madd`), which are scaled and added to 8 float lanes that are summed once per row; the
/// portable loops sum each block down to one number and add it to a scalar, a chain of dependent
/// additions. Block scales are converted by the F16C instruction, not through a table.
enum AVX2BlockProducts {
    /// The product of a Q4_0 (`hasMinimum` false) or Q4_1 row of `blocks` blocks with `input`.
    @inline(__always)
    static func q4(_ row: UnsafeRawPointer, blocks: Int, hasMinimum: Bool, _ input: QuantizedVector) -> Float {
        let blockBytes = hasMinimum ? 20 : 18
        let quantOffset = hasMinimum ? 4 : 2
        let lowNibbles = __m128i(repeating: 0x0F0F_0F0F_0F0F_0F0F)
        var lanes = _mm256_setzero_ps()
        var offsets: Float = 0
        for block in 0..<blocks {
            let pointer = row + block * blockBytes
            // Byte i holds element i in its low half and element i + 16 in its high half.
            let packed = pointer.loadUnaligned(fromByteOffset: quantOffset, as: __m128i.self)
            let x = UnsafeRawPointer(input.values + block * 32)
            let products = _mm256_add_epi32(
                _mm256_madd_epi16(_mm256_cvtepu8_epi16(packed & lowNibbles), x.loadUnaligned(as: __m256i.self)),
                _mm256_madd_epi16(_mm256_cvtepu8_epi16((packed &>> 4) & lowNibbles), x.loadUnaligned(fromByteOffset: 32, as: __m256i.self)))
            let scale = _cvtsh_ss(pointer.loadUnaligned(as: UInt16.self))
            lanes = _mm256_fmadd_ps(_mm256_set1_ps(scale * input.scales[block]), _mm256_cvtepi32_ps(products), lanes)
            let minimum = hasMinimum ? _cvtsh_ss(pointer.loadUnaligned(fromByteOffset: 2, as: UInt16.self)) : -8 * scale
            offsets += minimum * input.sums[block]
        }
        return (lanes as SIMD8<Float>).sum() + offsets
    }

    /// The product of a Q8_0 row of `blocks` blocks with `input`.
    @inline(__always)
    static func q8(_ row: UnsafeRawPointer, blocks: Int, _ input: QuantizedVector) -> Float {
        var lanes = _mm256_setzero_ps()
        for block in 0..<blocks {
            let pointer = row + block * 34
            let x = UnsafeRawPointer(input.values + block * 32)
            let products = _mm256_add_epi32(
                _mm256_madd_epi16(_mm256_cvtepi8_epi16(pointer.loadUnaligned(fromByteOffset: 2, as: __m128i.self)), x.loadUnaligned(as: __m256i.self)),
                _mm256_madd_epi16(_mm256_cvtepi8_epi16(pointer.loadUnaligned(fromByteOffset: 18, as: __m128i.self)), x.loadUnaligned(fromByteOffset: 32, as: __m256i.self)))
            let scale = _cvtsh_ss(pointer.loadUnaligned(as: UInt16.self))
            lanes = _mm256_fmadd_ps(_mm256_set1_ps(scale * input.scales[block]), _mm256_cvtepi32_ps(products), lanes)
        }
        return (lanes as SIMD8<Float>).sum()
    }
}
#endif
