#if GUIDED_AVX2 && arch(x86_64)
import _Builtin_intrinsics.intel

/// Row-by-vector products of Q4_0, Q4_1 and Q8_0 rows with 16-bit activations, in AVX2
/// instructions: a block's weights are widened to 16 bits and multiplied in pairs into 32-bit
/// sums (`madd`), which are scaled and added to 8 float lanes that are summed once per row; the
/// portable loops sum each block down to one number and add it to a scalar, a chain of dependent
/// additions. Block scales are converted by the F16C instruction, not through a table. The
/// four-vector forms (for batches) widen each block's weights once for four inputs.
enum AVX2BlockProducts {
    /// A block's 32 weights as 16-bit integers (elements 0 to 15, then 16 to 31), its scale, and
    /// the value its quants are offset by (Q4_1's minimum, `-8 × scale` for Q4_0, 0 for Q8_0).
    private typealias Block = (low: __m256i, high: __m256i, scale: Float, offset: Float)

    @inline(__always)
    private static func q4Block(_ pointer: UnsafeRawPointer, hasMinimum: Bool) -> Block {
        let lowNibbles = __m128i(repeating: 0x0F0F_0F0F_0F0F_0F0F)
        // Byte i holds element i in its low half and element i + 16 in its high half.
        let packed = pointer.loadUnaligned(fromByteOffset: hasMinimum ? 4 : 2, as: __m128i.self)
        let scale = _cvtsh_ss(pointer.loadUnaligned(as: UInt16.self))
        return (
            _mm256_cvtepu8_epi16(packed & lowNibbles), _mm256_cvtepu8_epi16((packed &>> 4) & lowNibbles), scale,
            hasMinimum ? _cvtsh_ss(pointer.loadUnaligned(fromByteOffset: 2, as: UInt16.self)) : -8 * scale
        )
    }

    @inline(__always)
    private static func q8Block(_ pointer: UnsafeRawPointer) -> Block {
        (
            _mm256_cvtepi8_epi16(pointer.loadUnaligned(fromByteOffset: 2, as: __m128i.self)),
            _mm256_cvtepi8_epi16(pointer.loadUnaligned(fromByteOffset: 18, as: __m128i.self)),
            _cvtsh_ss(pointer.loadUnaligned(as: UInt16.self)), 0
        )
    }

    /// Adds block `block`'s products with `input` to `lanes`.
    @inline(__always)
    private static func accumulate(_ lanes: inout __m256, _ weights: Block, _ input: QuantizedVector, _ block: Int) {
        let x = UnsafeRawPointer(input.values + block * 32)
        let products = _mm256_add_epi32(
            _mm256_madd_epi16(weights.low, x.loadUnaligned(as: __m256i.self)),
            _mm256_madd_epi16(weights.high, x.loadUnaligned(fromByteOffset: 32, as: __m256i.self)))
        lanes = _mm256_fmadd_ps(_mm256_set1_ps(weights.scale * input.scales[block]), _mm256_cvtepi32_ps(products), lanes)
    }

    /// The product of a row of `type` (Q4_0, Q4_1 or Q8_0) and `blocks` blocks with `input`.
    @inline(__always)
    static func product(_ row: UnsafeRawPointer, type: GGMLType, blocks: Int, _ input: QuantizedVector) -> Float {
        let blockBytes = type.blockBytes
        let isQ8 = type == .q8_0
        let hasMinimum = type == .q4_1
        var lanes = _mm256_setzero_ps()
        var offsets: Float = 0
        for block in 0..<blocks {
            let pointer = row + block * blockBytes
            let weights = isQ8 ? q8Block(pointer) : q4Block(pointer, hasMinimum: hasMinimum)
            accumulate(&lanes, weights, input, block)
            offsets += weights.offset * input.sums[block]
        }
        return (lanes as SIMD8<Float>).sum() + offsets
    }

    /// The products of one row with four vectors, each block's weights widened once.
    @inline(__always)
    static func products(
        _ row: UnsafeRawPointer, type: GGMLType, blocks: Int,
        _ a: QuantizedVector, _ b: QuantizedVector, _ c: QuantizedVector, _ d: QuantizedVector
    ) -> SIMD4<Float> {
        let blockBytes = type.blockBytes
        let isQ8 = type == .q8_0
        let hasMinimum = type == .q4_1
        var lanesA = _mm256_setzero_ps()
        var lanesB = _mm256_setzero_ps()
        var lanesC = _mm256_setzero_ps()
        var lanesD = _mm256_setzero_ps()
        var offsets = SIMD4<Float>()
        for block in 0..<blocks {
            let pointer = row + block * blockBytes
            let weights = isQ8 ? q8Block(pointer) : q4Block(pointer, hasMinimum: hasMinimum)
            accumulate(&lanesA, weights, a, block)
            accumulate(&lanesB, weights, b, block)
            accumulate(&lanesC, weights, c, block)
            accumulate(&lanesD, weights, d, block)
            offsets += weights.offset * SIMD4(a.sums[block], b.sums[block], c.sums[block], d.sums[block])
        }
        return SIMD4((lanesA as SIMD8<Float>).sum(), (lanesB as SIMD8<Float>).sum(), (lanesC as SIMD8<Float>).sum(), (lanesD as SIMD8<Float>).sum()) + offsets
    }
}
#endif
