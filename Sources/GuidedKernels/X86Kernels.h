// The x86-64 kernels, included by AVX2Kernels.c and AVX512Kernels.c once per instruction set:
// `X86_TARGET` is the target attribute of the functions, and `X86_VNNI` says whether the products use
// AVX-512 VNNI's `vpdpbusd` (on 256-bit registers) instead of `vpmaddubsw` and `vpmaddwd`. The
// functions are compiled for their instructions one by one, so that the rest of the build keeps
// the baseline target and runs on any x86-64 CPU; they are only called where the CPU reports them.
#include "KernelSupport.h"
#include <immintrin.h>

#define INLINE __attribute__((always_inline)) static inline
#define LOOP GUIDED_LOOP_INLINE

INLINE X86_TARGET float horizontal_sum(__m256 v) {
    __m128 sum = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    sum = _mm_add_ps(sum, _mm_movehl_ps(sum, sum));
    sum = _mm_add_ss(sum, _mm_movehdup_ps(sum));
    return _mm_cvtss_f32(sum);
}

INLINE X86_TARGET float horizontal_max(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}

static X86_TARGET void quantize(const float *input, size_t count, GuidedQuantizedVectors output) {
    const __m256 signBit = _mm256_set1_ps(-0.0f);
    for (size_t block = 0; block < count / 32; block++) {
        const float *x = input + block * 32;
        __m256 v[4], largest = _mm256_setzero_ps();
        for (int i = 0; i < 4; i++) {
            v[i] = _mm256_loadu_ps(x + 8 * i);
            largest = _mm256_max_ps(largest, _mm256_andnot_ps(signBit, v[i]));
        }
        float maximum = horizontal_max(largest), scale = guided_rounded_to_half(maximum / 127);
        __m256 inverse = _mm256_set1_ps(maximum > 0 ? 127 / maximum : 0);
        __m256i q[4];
        for (int i = 0; i < 4; i++) {
            q[i] = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v[i], inverse), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        }
        // 32-bit lanes to bytes: the packs interleave the 128-bit halves, the permute restores order.
        __m256i words = _mm256_packs_epi32(q[0], q[1]), words2 = _mm256_packs_epi32(q[2], q[3]);
        __m256i bytes = _mm256_packs_epi16(words, words2);
        bytes = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256((__m256i *)(output.values + block * 32), bytes);
        __m256i half = _mm256_add_epi32(q[0], q[1]);
        __m256i sum = _mm256_add_epi32(half, _mm256_add_epi32(q[2], q[3]));
        // At most 32 × 127 in magnitude: exact in floats.
        float total = horizontal_sum(_mm256_cvtepi32_ps(sum));
        output.scales[block] = scale;
        output.sums[block] = scale * total;
        output.halfSums[block] = scale * horizontal_sum(_mm256_cvtepi32_ps(half));
        output.roundedSums[block] = guided_rounded_to_half(maximum / 127 * total);
        output.blockSums[block] = (int32_t)total;
    }
}

/// Sub-block `b` (32 weights) of a row as bytes in element order, and what its products need.
typedef struct {
    __m256i quants;
    /// The scale of each of the 8 lanes of products (lanes 0 to 3 hold the first 16 elements): one
    /// scale, or Q6_K's two.
    __m256 scale;
    /// What the block's input sum is multiplied by: a minimum, or the offset of unsigned codes.
    float offset;
    /// What the sum of the block's first 16 inputs is multiplied by: Q2_K's first minimum less its
    /// second (0 for the other types).
    float halfOffset;
} Block;

/// 0xFF in byte i where bit i of `bits` is set, else 0.
INLINE X86_TARGET __m256i bytes_from_bits(uint32_t bits) {
    __m256i spread = _mm256_shuffle_epi8(
        _mm256_set1_epi32((int)bits), _mm256_setr_epi64x(0, 0x0101010101010101, 0x0202020202020202, 0x0303030303030303));
    // Every bit of byte i but bit i % 8 set: the byte is all ones exactly when bit i was.
    spread = _mm256_or_si256(spread, _mm256_set1_epi64x(0x7FBFDFEFF7FBFDFE));
    return _mm256_cmpeq_epi8(spread, _mm256_set1_epi64x(-1));
}

/// Sixteen packed bytes as 32 nibbles in element order (low halves, then high halves).
INLINE X86_TARGET __m256i nibbles(const uint8_t *pointer) {
    __m128i packed = _mm_loadu_si128((const __m128i *)pointer);
    return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(packed, 4), packed), _mm256_set1_epi8(0x0F));
}

INLINE X86_TARGET Block load_block(int type, const uint8_t *row, size_t b) {
    const uint8_t *pointer = guided_block_of(type, row, b);
    Block block;
    float scale;
    block.halfOffset = 0;
    switch ((GuidedTensorType)type) {
    case GUIDED_TYPE_Q8_0:
        block.quants = _mm256_loadu_si256((const __m256i *)(pointer + 2));
        scale = _cvtsh_ss(guided_load_u16(pointer));
        block.offset = 0;
        break;
    case GUIDED_TYPE_IQ4_NL: {
        __m128i table = _mm_loadu_si128((const __m128i *)guided_nonlinear_values);
        block.quants = _mm256_shuffle_epi8(_mm256_set_m128i(table, table), nibbles(pointer + 2));
        scale = _cvtsh_ss(guided_load_u16(pointer));
        block.offset = 0;
        break;
    }
    case GUIDED_TYPE_Q5_0:
    case GUIDED_TYPE_Q5_1: {
        size_t high = type == GUIDED_TYPE_Q5_1 ? 4 : 2;
        uint32_t bits;
        memcpy(&bits, pointer + high, 4);
        block.quants = _mm256_or_si256(nibbles(pointer + high + 4), _mm256_and_si256(bytes_from_bits(bits), _mm256_set1_epi8(0x10)));
        scale = _cvtsh_ss(guided_load_u16(pointer));
        block.offset = type == GUIDED_TYPE_Q5_1 ? _cvtsh_ss(guided_load_u16(pointer + 2)) : -16 * scale;
        break;
    }
    case GUIDED_TYPE_Q4_K:
    case GUIDED_TYPE_Q5_K: {
        int j = (int)(b % 8), subScale, subMinimum;
        guided_scale_and_minimum(pointer + 4, j, &subScale, &subMinimum);
        __m256i quants = _mm256_loadu_si256((const __m256i *)(pointer + (type == GUIDED_TYPE_Q5_K ? 48 : 16) + (j / 2) * 32));
        quants = _mm256_and_si256(_mm256_srl_epi16(quants, _mm_cvtsi32_si128(4 * (j & 1))), _mm256_set1_epi8(0x0F));
        if (type == GUIDED_TYPE_Q5_K) {
            __m256i high = _mm256_srl_epi16(_mm256_loadu_si256((const __m256i *)(pointer + 16)), _mm_cvtsi32_si128(j));
            quants = _mm256_or_si256(quants, _mm256_slli_epi16(_mm256_and_si256(high, _mm256_set1_epi8(1)), 4));
        }
        block.quants = quants;
        scale = _cvtsh_ss(guided_load_u16(pointer)) * (float)subScale;
        block.offset = -_cvtsh_ss(guided_load_u16(pointer + 2)) * (float)subMinimum;
        break;
    }
    case GUIDED_TYPE_Q3_K: {
        int j = (int)(b % 8);
        __m256i low = _mm256_loadu_si256((const __m256i *)(pointer + 32 + (j / 4) * 32));
        low = _mm256_and_si256(_mm256_srl_epi16(low, _mm_cvtsi32_si128(2 * (j % 4))), _mm256_set1_epi8(3));
        __m256i third = _mm256_and_si256(_mm256_srl_epi16(_mm256_loadu_si256((const __m256i *)pointer), _mm_cvtsi32_si128(j)), _mm256_set1_epi8(1));
        // A clear third bit subtracts 4: code = low + 4 × third - 4.
        block.quants = _mm256_sub_epi8(_mm256_or_si256(low, _mm256_slli_epi16(third, 2)), _mm256_set1_epi8(4));
        float d = _cvtsh_ss(guided_load_u16(pointer + 108));
        block.scale = _mm256_set_m128(
            _mm_set1_ps(d * (float)guided_q3k_scale(pointer + 96, 2 * j + 1)), _mm_set1_ps(d * (float)guided_q3k_scale(pointer + 96, 2 * j)));
        block.offset = 0;
        return block;
    }
    case GUIDED_TYPE_Q2_K: {
        int j = (int)(b % 8);
        __m256i codes = _mm256_loadu_si256((const __m256i *)(pointer + 16 + (j / 4) * 32));
        block.quants = _mm256_and_si256(_mm256_srl_epi16(codes, _mm_cvtsi32_si128(2 * (j % 4))), _mm256_set1_epi8(3));
        float d = _cvtsh_ss(guided_load_u16(pointer + 80)), minimum = _cvtsh_ss(guided_load_u16(pointer + 82));
        block.scale = _mm256_set_m128(_mm_set1_ps(d * (float)(pointer[2 * j + 1] & 0x0F)), _mm_set1_ps(d * (float)(pointer[2 * j] & 0x0F)));
        block.offset = -minimum * (float)(pointer[2 * j + 1] >> 4);
        block.halfOffset = -minimum * ((float)(pointer[2 * j] >> 4) - (float)(pointer[2 * j + 1] >> 4));
        return block;
    }
    case GUIDED_TYPE_Q6_K: {
        int j = (int)(b % 8), half = j / 4, group = j % 4;
        __m256i low = _mm256_loadu_si256((const __m256i *)(pointer + half * 64 + (group % 2) * 32));
        low = _mm256_and_si256(_mm256_srl_epi16(low, _mm_cvtsi32_si128(4 * (group / 2))), _mm256_set1_epi8(0x0F));
        __m256i high = _mm256_loadu_si256((const __m256i *)(pointer + 128 + half * 32));
        high = _mm256_and_si256(_mm256_srl_epi16(high, _mm_cvtsi32_si128(2 * group)), _mm256_set1_epi8(3));
        block.quants = _mm256_sub_epi8(_mm256_or_si256(low, _mm256_slli_epi16(high, 4)), _mm256_set1_epi8(32));
        float d = _cvtsh_ss(guided_load_u16(pointer + 208));
        const int8_t *scales = (const int8_t *)(pointer + 192 + 2 * j);
        block.scale = _mm256_set_m128(_mm_set1_ps(d * (float)scales[1]), _mm_set1_ps(d * (float)scales[0]));
        block.offset = 0;
        return block;
    }
    case GUIDED_TYPE_Q4_0:
    case GUIDED_TYPE_Q4_1: {
        block.quants = nibbles(pointer + guided_quant_offset(type));
        scale = _cvtsh_ss(guided_load_u16(pointer));
        block.offset = type == GUIDED_TYPE_Q4_1 ? _cvtsh_ss(guided_load_u16(pointer + 2)) : -8 * scale;
        break;
    }
    GUIDED_TYPES_WITHOUT_INTEGER_KERNEL:
        // Never multiplied here: their products run in floats.
        block.quants = _mm256_setzero_si256();
        scale = 0;
        block.offset = 0;
        break;
    }
    block.scale = _mm256_set1_ps(scale);
    return block;
}

/// Whether a type's products are summed in integers over each block of 256 weights, as
/// llama.cpp sums its K-quants: each sub-block's integer products times its integer scale, added
/// up exactly in 32-bit lanes, then one multiply-add in floats per block (by the block's scale
/// times the input's, which one scale covers 256 inputs); Q4_K's and Q5_K's minimums likewise,
/// each times its sub-block's integer input sum. The other types multiply-add in floats every 32
/// weights.
INLINE int sums_blocks_in_integers(int type) {
    return type == GUIDED_TYPE_Q4_K || type == GUIDED_TYPE_Q5_K || type == GUIDED_TYPE_Q6_K;
}

/// The float scale of a Q4_K, Q5_K or Q6_K block, which multiplies its integer scales.
INLINE X86_TARGET float block_scale(int type, const uint8_t *block) {
    return _cvtsh_ss(guided_load_u16(block + (type == GUIDED_TYPE_Q6_K ? 208 : 0)));
}

/// The float scale of a Q4_K or Q5_K block's minimums.
INLINE X86_TARGET float block_minimum_scale(const uint8_t *block) { return _cvtsh_ss(guided_load_u16(block + 2)); }

/// The 6-bit scales (bytes 0 to 7) and minimums (bytes 8 to 15) of a Q4_K or Q5_K block's 8
/// sub-blocks, unpacked from their 12 bytes.
INLINE X86_TARGET __m128i sub_block_scales_and_minimums(const uint8_t *block) {
    uint32_t words[3];
    memcpy(words, block + 4, 12);
    // Sub-blocks 0-3 keep their 6 bits in bytes 0-3 (scales) and 4-7 (minimums); sub-blocks 4-7
    // take 4 bits from bytes 8-11 and their top 2 bits from the top of bytes 0-3 and 4-7.
    return _mm_setr_epi32(
        (int)(words[0] & 0x3F3F3F3Fu), (int)((words[2] & 0x0F0F0F0Fu) | (((words[0] >> 6) & 0x03030303u) << 4)),
        (int)(words[1] & 0x3F3F3F3Fu), (int)(((words[2] >> 4) & 0x0F0F0F0Fu) | (((words[1] >> 6) & 0x03030303u) << 4)));
}

/// The integer scales of the 16 halves (16 weights each) of a Q4_K, Q5_K or Q6_K block (Q4_K and
/// Q5_K: each sub-block's 6-bit scale, twice; Q6_K: its 16 signed 8-bit scales) and, for Q4_K
/// and Q5_K, the 6-bit minimums of its 8 sub-blocks.
INLINE X86_TARGET void block_integer_scales(int type, const uint8_t *block, int16_t *scales, int16_t *minimums) {
    if (type == GUIDED_TYPE_Q6_K) {
        _mm256_storeu_si256((__m256i *)scales, _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(block + 192))));
        return;
    }
    __m128i unpacked = sub_block_scales_and_minimums(block);
    // Each sub-block's scale for both of its halves.
    __m128i sub = _mm_cvtepu8_epi16(unpacked);
    _mm_storeu_si128((__m128i *)scales, _mm_unpacklo_epi16(sub, sub));
    _mm_storeu_si128((__m128i *)(scales + 8), _mm_unpackhi_epi16(sub, sub));
    _mm_storeu_si128((__m128i *)minimums, _mm_cvtepu8_epi16(_mm_srli_si128(unpacked, 8)));
}

/// A block's minimums times its sub-blocks' integer input sums, added up: exact (the sums, at most
/// 32 × 127 in magnitude, fit in 16 bits).
INLINE X86_TARGET int32_t minimum_terms(const int16_t *minimums, const int32_t *blockSums) {
    __m256i sums = _mm256_loadu_si256((const __m256i *)blockSums);
    __m128i sums16 = _mm_packs_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    __m128i products = _mm_madd_epi16(_mm_loadu_si128((const __m128i *)minimums), sums16);
    products = _mm_add_epi32(products, _mm_shuffle_epi32(products, _MM_SHUFFLE(1, 0, 3, 2)));
    products = _mm_add_epi32(products, _mm_shuffle_epi32(products, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(products);
}

/// Subtracts a block's minimum terms, times its minimums' scale and the input's, from a product's
/// running float (its one rounding step per block for them, alike in every path).
INLINE float add_minimum_terms(float total, float minimumScale, float inputScale, int32_t terms) {
    return fmaf(-(minimumScale * inputScale), (float)terms, total);
}

/// The scales of a sub-block's two halves (`scales[0]` and `scales[1]`) in the 16-bit lanes of
/// its pairs of products: lanes 0 to 7 hold the first 16 elements.
INLINE X86_TARGET __m256i half_scales(const int16_t *scales) {
    return _mm256_set_m128i(_mm_set1_epi16(scales[1]), _mm_set1_epi16(scales[0]));
}

/// Adds a block's integer sums, times its scale and the input's, to a row's float sums: the one
/// rounding step per 256 weights that every path of a product takes alike.
INLINE X86_TARGET __m256 add_block_sums(__m256 sums, float weightScale, float inputScale, __m256i products) {
    return _mm256_fmadd_ps(_mm256_set1_ps(weightScale * inputScale), _mm256_cvtepi32_ps(products), sums);
}

/// The products of a block's weights with 32 bytes of input, summed by fours into 8 lanes, as
/// floats. Unsigned weights are the form `maddubs` and `dpbusd` multiply; signed ones give their
/// sign to the input first.
INLINE X86_TARGET __m256 block_product(int type, __m256i weights, __m256i x) {
    if (guided_is_signed(type)) {
        x = _mm256_sign_epi8(x, weights);
        weights = _mm256_sign_epi8(weights, weights);
    }
#if X86_VNNI
    // One instruction: unsigned bytes times signed bytes, four products added into each lane.
    return _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(_mm256_setzero_si256(), weights, x));
#else
    return _mm256_cvtepi32_ps(_mm256_madd_epi16(_mm256_maddubs_epi16(weights, x), _mm256_set1_epi16(1)));
#endif
}

INLINE X86_TARGET float dot(const float *left, const float *right, size_t count) {
    __m256 sum0 = _mm256_setzero_ps(), sum1 = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        sum0 = _mm256_fmadd_ps(_mm256_loadu_ps(left + i), _mm256_loadu_ps(right + i), sum0);
        sum1 = _mm256_fmadd_ps(_mm256_loadu_ps(left + i + 8), _mm256_loadu_ps(right + i + 8), sum1);
    }
    for (; i + 8 <= count; i += 8) sum0 = _mm256_fmadd_ps(_mm256_loadu_ps(left + i), _mm256_loadu_ps(right + i), sum0);
    float total = horizontal_sum(_mm256_add_ps(sum0, sum1));
    for (; i < count; i++) total += left[i] * right[i];
    return total;
}

/// The offset terms of a row's product with a vector: `Σ offsets[b] × sums[b]` over the blocks (and
/// Q2_K's half-block terms, whose offsets follow from `offsets[blocks]` on), summed by `dot`.
INLINE X86_TARGET float offset_terms(int type, const float *offsets, size_t blocks, GuidedQuantizedVectors x) {
    if (guided_is_signed(type)) return 0;
    float total = dot(offsets, x.sums, blocks);
    if (type == GUIDED_TYPE_Q2_K) total += dot(offsets + blocks, x.halfSums, blocks);
    return total;
}

/// Keeps block `b`'s offset (and Q2_K's half-block offset, from `offsets[blocks]` on) for
/// `offset_terms`; types without offsets keep nothing.
INLINE X86_TARGET void keep_offsets(int type, Block w, size_t b, size_t blocks, float *offsets) {
    if (!guided_is_signed(type)) offsets[b] = w.offset;
    if (type == GUIDED_TYPE_Q2_K) offsets[blocks + b] = w.halfOffset;
}

/// A row's sums of block products, even and odd blocks apart, as a batch sums them (with VNNI in
/// the two halves of a 512-bit register), so that a row's product with a vector is the same alone
/// and in a batch, as llama.cpp's are, and the same with either x86-64 variant.
typedef struct {
    __m256 even, odd;
} RowSums;

INLINE X86_TARGET RowSums row_sums_zero(void) {
    RowSums sums = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    return sums;
}

/// Adds block `b`'s product (its scales `scale`, its integer sums `products`).
INLINE X86_TARGET void row_sums_add(RowSums *sums, size_t b, __m256 scale, __m256 products) {
    if (b % 2) {
        sums->odd = _mm256_fmadd_ps(scale, products, sums->odd);
    } else {
        sums->even = _mm256_fmadd_ps(scale, products, sums->even);
    }
}

INLINE X86_TARGET float row_sums_total(RowSums sums) { return horizontal_sum(_mm256_add_ps(sums.even, sums.odd)); }

/// A block of 256 weights' float scales, and its 8 sub-blocks' integer minimums (Q4_K, Q5_K), as a
/// batch unpacks them.
typedef struct {
    float scale, minimumScale;
    int16_t minimums[8];
} BlockScales;

/// The float scales and integer minimums of a Q4_K, Q5_K or Q6_K block, and its halves' integer
/// scales into `scales`.
INLINE X86_TARGET BlockScales block_scales(int type, const uint8_t *block, int16_t *scales) {
    BlockScales result;
    block_integer_scales(type, block, scales, result.minimums);
    result.scale = block_scale(type, block);
    result.minimumScale = guided_is_signed(type) ? 0 : block_minimum_scale(block);
    return result;
}

/// Adds block `k`'s integer sums of a row's product with vector `x` to the product's float sums and
/// minimum terms, as `integer_rows` adds them.
INLINE X86_TARGET void add_integer_block(int type, __m256 *sums, float *minimumSums, const BlockScales *block, size_t k, __m256i products, GuidedQuantizedVectors x) {
    *sums = add_block_sums(*sums, block->scale, x.scales[8 * k], products);
    if (!guided_is_signed(type)) {
        *minimumSums = add_minimum_terms(*minimumSums, block->minimumScale, x.scales[8 * k], minimum_terms(block->minimums, x.blockSums + 8 * k));
    }
}

/// The integer scales of a Q4_K, Q5_K or Q6_K block as `sub_block_scale` picks them: sub-block
/// `j`'s first half's in word `j` of the low 128 bits, its second half's in word `j` of the high
/// ones; for Q4_K and Q5_K, also the minimums of its 8 sub-blocks into `minimums`.
INLINE X86_TARGET __m256i sub_block_scale_table(int type, const uint8_t *block, int16_t *minimums) {
    if (type == GUIDED_TYPE_Q6_K) {
        // The 16 signed scales, those of even halves first.
        __m128i scales = _mm_loadu_si128((const __m128i *)(block + 192));
        scales = _mm_shuffle_epi8(scales, _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
        return _mm256_cvtepi8_epi16(scales);
    }
    __m128i unpacked = sub_block_scales_and_minimums(block);
    _mm_storeu_si128((__m128i *)minimums, _mm_cvtepu8_epi16(_mm_srli_si128(unpacked, 8)));
    return _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(unpacked));
}

/// A block's `sub_block_scale_table`, and its float scales and minimums into `scales`.
INLINE X86_TARGET __m256i sub_block_scales(int type, const uint8_t *block, BlockScales *scales) {
    scales->scale = block_scale(type, block);
    scales->minimumScale = guided_is_signed(type) ? 0 : block_minimum_scale(block);
    return sub_block_scale_table(type, block, scales->minimums);
}

/// Sub-block `j`'s integer scales from a `sub_block_scale_table`, in the 16-bit lanes of its
/// pairs of products: lanes 0 to 7 hold the first 16 elements.
INLINE X86_TARGET __m256i sub_block_scale(__m256i table, int j) {
    return _mm256_shuffle_epi8(table, _mm256_set1_epi16((short)(0x0100 + 0x0202 * j)));
}

/// Sub-blocks `2 × p` and `2 × p + 1` of a Q4_K, Q5_K or Q6_K block as unsigned codes (Q6_K's
/// before their offset of 32 is taken), each pair from the bytes they share.
INLINE X86_TARGET void sub_block_pair(int type, const uint8_t *block, int p, __m256i *first, __m256i *second) {
    const __m256i low = _mm256_set1_epi8(0x0F);
    if (type == GUIDED_TYPE_Q6_K) {
        // Half `p / 2` of the block: 64 bytes of low 4 bits (sub-blocks 0 and 1 in their low
        // nibbles, 2 and 3 in their high ones) and 32 bytes of high 2 bits (sub-block g in bits 2g).
        int half = p / 2;
        __m256i a = _mm256_loadu_si256((const __m256i *)(block + 64 * half));
        __m256i b = _mm256_loadu_si256((const __m256i *)(block + 64 * half + 32));
        __m256i high = _mm256_loadu_si256((const __m256i *)(block + 128 + 32 * half));
        const __m256i top = _mm256_set1_epi8(0x30);
        if (p % 2 == 0) {
            *first = _mm256_or_si256(_mm256_and_si256(a, low), _mm256_and_si256(_mm256_slli_epi16(high, 4), top));
            *second = _mm256_or_si256(_mm256_and_si256(b, low), _mm256_and_si256(_mm256_slli_epi16(high, 2), top));
        } else {
            *first = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(a, 4), low), _mm256_and_si256(high, top));
            *second = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(b, 4), low), _mm256_and_si256(_mm256_srli_epi16(high, 2), top));
        }
        return;
    }
    // Q4_K and Q5_K: 32 bytes, sub-block 2p in their low nibbles and 2p + 1 in their high ones.
    __m256i quants = _mm256_loadu_si256((const __m256i *)(block + (type == GUIDED_TYPE_Q5_K ? 48 : 16) + 32 * p));
    *first = _mm256_and_si256(quants, low);
    *second = _mm256_and_si256(_mm256_srli_epi16(quants, 4), low);
    if (type == GUIDED_TYPE_Q5_K) {
        // Sub-block j's fifth bits are bit j of 32 bytes.
        __m256i high = _mm256_srl_epi16(_mm256_loadu_si256((const __m256i *)(block + 16)), _mm_cvtsi32_si128(2 * p));
        const __m256i fifth = _mm256_set1_epi8(0x10);
        *first = _mm256_or_si256(*first, _mm256_and_si256(_mm256_slli_epi16(high, 4), fifth));
        *second = _mm256_or_si256(*second, _mm256_and_si256(_mm256_slli_epi16(high, 3), fifth));
    }
}

/// Adds the pairs of products `pairs` times `scales` to `sums`: lane i gains `scales × (pairs 2i
/// and 2i + 1)`, exactly.
INLINE X86_TARGET __m256i add_scaled_pairs(__m256i sums, __m256i pairs, __m256i scales) {
#if X86_VNNI
    return _mm256_dpwssd_epi32(sums, pairs, scales);
#else
    return _mm256_add_epi32(sums, _mm256_madd_epi16(pairs, scales));
#endif
}

/// The products of `count` rows (1 or 2, a constant where inlined) of a type that
/// `sums_blocks_in_integers` with one vector, which is loaded once for them; the rows' bytes
/// `prefetch` ahead are asked for. Lane i of a block's integer sums holds the products of
/// elements 4i to 4i + 3 of each sub-block times their half's scale, as the batches sum them;
/// Q6_K's codes are multiplied unsigned and 32 times the inputs taken away in each pair.
INLINE X86_TARGET void integer_rows(
    int type, const uint8_t *const *rows, int count, size_t blocks, GuidedQuantizedVectors x, float *outputs, size_t prefetch) {
    const size_t blockBytes = guided_block_bytes((GuidedTensorType)type);
    __m256 sums[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    float minimumSums[2] = {0, 0};
    BlockScales blockScales[2];
    for (size_t k = 0; k < blocks / 8; k++) {
        __m256i products[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()}, table[2];
        const uint8_t *block[2];
        for (int i = 0; i < count; i++) {
            block[i] = rows[i] + k * blockBytes;
            for (size_t line = 0; line < blockBytes; line += 64) _mm_prefetch((const char *)block[i] + prefetch + line, _MM_HINT_T0);
            table[i] = sub_block_scales(type, block[i], &blockScales[i]);
        }
        for (int p = 0; p < 4; p++) {
            const int8_t *values = x.values + (8 * k + 2 * p) * 32;
            __m256i input0 = _mm256_loadu_si256((const __m256i *)values), input1 = _mm256_loadu_si256((const __m256i *)(values + 32));
            __m256i offset0 = _mm256_setzero_si256(), offset1 = _mm256_setzero_si256();
            if (type == GUIDED_TYPE_Q6_K) {
                offset0 = _mm256_maddubs_epi16(_mm256_set1_epi8(32), input0);
                offset1 = _mm256_maddubs_epi16(_mm256_set1_epi8(32), input1);
            }
            for (int i = 0; i < count; i++) {
                __m256i first, second;
                sub_block_pair(type, block[i], p, &first, &second);
                __m256i pairs0 = _mm256_sub_epi16(_mm256_maddubs_epi16(first, input0), offset0);
                __m256i pairs1 = _mm256_sub_epi16(_mm256_maddubs_epi16(second, input1), offset1);
                products[i] = add_scaled_pairs(products[i], pairs0, sub_block_scale(table[i], 2 * p));
                products[i] = add_scaled_pairs(products[i], pairs1, sub_block_scale(table[i], 2 * p + 1));
            }
        }
        for (int i = 0; i < count; i++) add_integer_block(type, &sums[i], &minimumSums[i], &blockScales[i], k, products[i], x);
    }
    for (int i = 0; i < count; i++) outputs[i] = horizontal_sum(sums[i]) + minimumSums[i];
}

/// Two rows with one vector, which is loaded once for both; the rows' bytes `prefetch` ahead are
/// asked for.
LOOP X86_TARGET void two_rows(
    int type, const uint8_t *first, const uint8_t *second, size_t blocks, GuidedQuantizedVectors x, float *firstOutput,
    float *secondOutput, size_t prefetch) {
    if (sums_blocks_in_integers(type)) {
        const uint8_t *rows[2] = {first, second};
        float outputs[2];
        integer_rows(type, rows, 2, blocks, x, outputs, prefetch);
        *firstOutput = outputs[0];
        *secondOutput = outputs[1];
        return;
    }
    RowSums sums0 = row_sums_zero(), sums1 = row_sums_zero();
    float offsets0[2 * blocks], offsets1[2 * blocks];
    for (size_t b = 0; b < blocks; b++) {
        _mm_prefetch((const char *)guided_block_of(type, first, b) + prefetch, _MM_HINT_T0);
        _mm_prefetch((const char *)guided_block_of(type, second, b) + prefetch, _MM_HINT_T0);
        __m256i input = _mm256_loadu_si256((const __m256i *)(x.values + b * 32));
        __m256 inputScale = _mm256_set1_ps(x.scales[b]);
        Block w0 = load_block(type, first, b), w1 = load_block(type, second, b);
        row_sums_add(&sums0, b, _mm256_mul_ps(w0.scale, inputScale), block_product(type, w0.quants, input));
        row_sums_add(&sums1, b, _mm256_mul_ps(w1.scale, inputScale), block_product(type, w1.quants, input));
        keep_offsets(type, w0, b, blocks, offsets0);
        keep_offsets(type, w1, b, blocks, offsets1);
    }
    *firstOutput = row_sums_total(sums0) + offset_terms(type, offsets0, blocks, x);
    *secondOutput = row_sums_total(sums1) + offset_terms(type, offsets1, blocks, x);
}

/// One row with one vector.
LOOP X86_TARGET float one_row(int type, const uint8_t *row, size_t blocks, GuidedQuantizedVectors x) {
    if (sums_blocks_in_integers(type)) {
        float output;
        integer_rows(type, &row, 1, blocks, x, &output, 0);
        return output;
    }
    RowSums sums = row_sums_zero();
    float offsets[2 * blocks];
    for (size_t b = 0; b < blocks; b++) {
        Block w = load_block(type, row, b);
        __m256i input = _mm256_loadu_si256((const __m256i *)(x.values + b * 32));
        row_sums_add(&sums, b, _mm256_mul_ps(w.scale, _mm256_set1_ps(x.scales[b])), block_product(type, w.quants, input));
        keep_offsets(type, w, b, blocks, offsets);
    }
    return row_sums_total(sums) + offset_terms(type, offsets, blocks, x);
}

/// Vector `index` of a batch of vectors of `blocks` blocks.
INLINE X86_TARGET GuidedQuantizedVectors vector_at(GuidedQuantizedVectors x, size_t index, size_t blocks) {
    GuidedQuantizedVectors result = {
        x.values + index * blocks * 32, x.scales + index * blocks, x.sums + index * blocks, x.halfSums + index * blocks,
        x.roundedSums + index * blocks, x.blockSums + index * blocks};
    return result;
}

/// How many vectors the rows of a tile are multiplied with at once in a batch: with AVX-512, a
/// register of sums for each row and vector of the tile (32 vector registers); with AVX2, a row
/// at a time (16).
#define VECTOR_GROUP 4
/// How many rows of a batch's matrix are unpacked at once, to be multiplied with every vector of
/// the batch while they stay in the first-level cache.
#define ROW_TILE 4
/// How many vectors of a batch are multiplied in one pass over the matrix's tiles, so that the
/// buffers on the stack stay small (`InferenceSession` batches 64 tokens).
#define BATCH_PASS 64

#if X86_VNNI
/// Two blocks of a row, unpacked: the weights as unsigned bytes (signed codes plus 128), and the
/// scales of their four 16-weight halves.
typedef struct {
    __m512i quants;
    float scales[4];
} UnpackedPair;

typedef UnpackedPair Unpacked;
/// Pairs of blocks (and a lone last block) per row.
#define UNPACKED_COUNT(blocks) (((blocks) + 1) / 2)

/// Unpacks a row into `unpacked`, and its blocks' offsets into `offsets` (then, from
/// `offsets[blocks]` on, Q2_K's half-block offsets).
LOOP X86_TARGET void unpack_row(int type, const uint8_t *row, size_t blocks, Unpacked *unpacked, float *offsets) {
    for (size_t b = 0; b < blocks; b += 2) {
        Block w0 = load_block(type, row, b);
        // A lone last block is paired with zero weights.
        Block w1 = w0;
        if (b + 1 < blocks) {
            w1 = load_block(type, row, b + 1);
            keep_offsets(type, w1, b + 1, blocks, offsets);
        } else {
            w1.quants = _mm256_setzero_si256();
        }
        keep_offsets(type, w0, b, blocks, offsets);
        UnpackedPair *pair = unpacked + b / 2;
        __m512i quants = _mm512_inserti64x4(_mm512_castsi256_si512(w0.quants), w1.quants, 1);
        // Signed codes plus 128, as unsigned bytes.
        if (guided_is_signed(type)) quants = _mm512_xor_si512(quants, _mm512_set1_epi8((char)0x80));
        pair->quants = quants;
        // Lanes 0 and 4 of a block's scale hold its halves' scales.
        pair->scales[0] = _mm256_cvtss_f32(w0.scale);
        pair->scales[1] = _mm_cvtss_f32(_mm256_extractf128_ps(w0.scale, 1));
        pair->scales[2] = _mm256_cvtss_f32(w1.scale);
        pair->scales[3] = _mm_cvtss_f32(_mm256_extractf128_ps(w1.scale, 1));
    }
}

/// `dot(left, right, count)` for the 16 pairs of a full tile's rows and a group of 4 vectors at
/// once, bit for bit: lane `4 × v + r` takes `left[i × 4 + r]` (the tile's offsets, block by
/// block) and `right[i × 4 + v]` (the group's input sums, block by block). Lane by lane, the same
/// multiplications and additions in the same order: `dot`'s 16 running sums are 16 registers.
_Static_assert(ROW_TILE == 4 && VECTOR_GROUP == 4, "tile_dot takes 4 rows and 4 vectors in its 16 lanes");
INLINE X86_TARGET __m512 tile_dot(const float *left, const float *right, size_t count) {
    const __m512i vectorIndex = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
#define TILE_TERM(i) \
    _mm512_broadcast_f32x4(_mm_loadu_ps(left + (i) * 4)), _mm512_permutexvar_ps(vectorIndex, _mm512_castps128_ps512(_mm_loadu_ps(right + (i) * 4)))
    __m512 sums[16];
    for (int j = 0; j < 16; j++) sums[j] = _mm512_setzero_ps();
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        for (int j = 0; j < 16; j++) sums[j] = _mm512_fmadd_ps(TILE_TERM(i + j), sums[j]);
    }
    for (; i + 8 <= count; i += 8) {
        for (int j = 0; j < 8; j++) sums[j] = _mm512_fmadd_ps(TILE_TERM(i + j), sums[j]);
    }
    // `horizontal_sum(sum0 + sum1)`: lanes j and j + 8, then j and j + 4, then 0 and 2, 1 and 3.
    __m512 lanes[8];
    for (int j = 0; j < 8; j++) lanes[j] = _mm512_add_ps(sums[j], sums[j + 8]);
    for (int j = 0; j < 4; j++) lanes[j] = _mm512_add_ps(lanes[j], lanes[j + 4]);
    __m512 total = _mm512_add_ps(_mm512_add_ps(lanes[0], lanes[2]), _mm512_add_ps(lanes[1], lanes[3]));
    for (; i < count; i++) total = _mm512_fmadd_ps(TILE_TERM(i), total);
#undef TILE_TERM
    return total;
}

/// `offset_terms` for the 16 pairs of a full tile's rows and a group of 4 vectors, lane
/// `4 × v + r`, from the tile's offsets and the group's input sums block by block
/// (`tile_dot`; Q2_K's half-block terms from block `blocks` on).
INLINE X86_TARGET __m512 tile_offset_terms(int type, const float *offsets, const float *sums, size_t blocks) {
    if (guided_is_signed(type)) return _mm512_setzero_ps();
    __m512 total = tile_dot(offsets, sums, blocks);
    if (type == GUIDED_TYPE_Q2_K) total = _mm512_add_ps(total, tile_dot(offsets + blocks * 4, sums + blocks * 4, blocks));
    return total;
}

/// The unpacked rows of a tile (`rows` of them, `unpackedCount` pairs apart) with a group of
/// `VECTOR_GROUP` vectors: one `vpdpbusd` multiplies 64 weights with 64 input bytes, and each
/// vector's bytes and scales are loaded once for all the rows. A full tile takes its offset terms
/// from `tileOffsets` and `groupSums` (`tile_offset_terms`), a last smaller one from `rowOffsets`.
LOOP X86_TARGET void unpacked_group(
    int type, const Unpacked *unpacked, size_t unpackedCount, const float *rowOffsets, const float *tileOffsets, const float *groupSums,
    size_t rows, size_t blocks, GuidedQuantizedVectors x, float *outputs, size_t outputStride) {
    const size_t vectors = VECTOR_GROUP;
    int wholeTile = rows == ROW_TILE;
    float offsetTerms[16];
    if (wholeTile) _mm512_storeu_ps(offsetTerms, tile_offset_terms(type, tileOffsets, groupSums, blocks));
    size_t elements = blocks * 32, pairs = blocks / 2;
    __m512 lanes[ROW_TILE * VECTOR_GROUP];
    for (size_t i = 0; i < rows * vectors; i++) lanes[i] = _mm512_setzero_ps();
    // Each group of four lanes takes its half's weight scale times its block's input scale: the
    // four products in one 128-bit multiplication, spread over the lanes by `halfIndex`.
    const __m512i halfIndex = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    for (size_t p = 0; p < pairs; p++) {
        for (size_t v = 0; v < vectors; v++) {
            __m512i input = _mm512_loadu_si512((const void *)(x.values + v * elements + p * 64));
            __m128 inputPair = _mm_castpd_ps(_mm_load_sd((const double *)(x.scales + v * blocks + 2 * p)));
            // The input scales of the four halves: the first block's twice, the second's twice.
            __m128 inputHalves = _mm_unpacklo_ps(inputPair, inputPair);
            // Signed codes are 128 more: the products start at -128 times each lane's four inputs.
            __m512i start = _mm512_setzero_si512();
            if (guided_is_signed(type)) start = _mm512_sub_epi32(start, _mm512_dpbusd_epi32(start, _mm512_set1_epi8((char)0x80), input));
            for (size_t r = 0; r < rows; r++) {
                const UnpackedPair *pair = unpacked + r * unpackedCount + p;
                __m512 products = _mm512_cvtepi32_ps(_mm512_dpbusd_epi32(start, pair->quants, input));
                __m512 scale = _mm512_permutexvar_ps(halfIndex, _mm512_castps128_ps512(_mm_mul_ps(_mm_loadu_ps(pair->scales), inputHalves)));
                lanes[r * vectors + v] = _mm512_fmadd_ps(scale, products, lanes[r * vectors + v]);
            }
        }
    }
    // The halves of the sums are the row's even and odd blocks, as `RowSums`; a lone last block
    // is added to the even ones, as `one_row` adds it.
    for (size_t r = 0; r < rows; r++) {
        const UnpackedPair *lonePair = unpacked + r * unpackedCount + pairs;
        for (size_t v = 0; v < vectors; v++) {
            __m512 sums = lanes[r * vectors + v];
            __m256 even = _mm512_castps512_ps256(sums);
            __m256 odd = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(sums), 1));
            if (blocks % 2) {
                __m256 loneScale = _mm256_set_m128(_mm_set1_ps(lonePair->scales[1]), _mm_set1_ps(lonePair->scales[0]));
                __m256i input = _mm256_loadu_si256((const __m256i *)(x.values + v * elements + pairs * 64));
                __m256i start = _mm256_setzero_si256();
                if (guided_is_signed(type)) start = _mm256_sub_epi32(start, _mm256_dpbusd_epi32(start, _mm256_set1_epi8((char)0x80), input));
                __m256 lone = _mm256_cvtepi32_ps(_mm256_dpbusd_epi32(start, _mm512_castsi512_si256(lonePair->quants), input));
                even = _mm256_fmadd_ps(_mm256_mul_ps(loneScale, _mm256_set1_ps(x.scales[v * blocks + 2 * pairs])), lone, even);
            }
            float offsets = wholeTile ? offsetTerms[4 * v + r] : offset_terms(type, rowOffsets + r * 2 * blocks, blocks, vector_at(x, v, blocks));
            outputs[v * outputStride + r] = horizontal_sum(_mm256_add_ps(even, odd)) + offsets;
        }
    }
}
/// Two sub-blocks of a row of a type that `sums_blocks_in_integers`, unpacked: the magnitudes of
/// the weights, the bytes whose weights are negative (Q6_K's), and the integer scales of the four
/// halves.
typedef struct {
    __m512i quants;
    __mmask64 negative;
    int16_t scales[4];
} IntegerUnpacked;
#define INTEGER_UNPACKED_COUNT(blocks) ((blocks) / 2)

/// Unpacks a row of a type that `sums_blocks_in_integers` into `unpacked`, and the scales and
/// minimums of its blocks of 256 into `blockScales`.
LOOP X86_TARGET void unpack_integer_row(int type, const uint8_t *row, size_t blocks, IntegerUnpacked *unpacked, BlockScales *blockScales) {
    int16_t scales[16];
    for (size_t k = 0; k < blocks / 8; k++) {
        blockScales[k] = block_scales(type, guided_block_of(type, row, 8 * k), scales);
        for (size_t p = 0; p < 4; p++) {
            size_t b = 8 * k + 2 * p;
            __m512i quants = _mm512_inserti64x4(_mm512_castsi256_si512(load_block(type, row, b).quants), load_block(type, row, b + 1).quants, 1);
            IntegerUnpacked *pair = unpacked + b / 2;
            pair->negative = _mm512_movepi8_mask(quants);
            pair->quants = _mm512_abs_epi8(quants);
            memcpy(pair->scales, scales + 4 * p, sizeof pair->scales);
        }
    }
}

/// The unpacked rows of a tile of a type that `sums_blocks_in_integers` (`rows` of them,
/// `unpackedCount` pairs apart) with a group of `VECTOR_GROUP` vectors: per 64 weights, one
/// `vpmaddubsw` and one `vpdpwssd` (which multiplies by the halves' scales and adds) for each row
/// and vector. The two sub-blocks of a pair fill the two halves of a register, whose integer
/// sums are added before their conversion, so that each lane is the exact sum that
/// `integer_rows` converts; per block of 256, the float steps of `add_integer_block` for the 16
/// pairs of rows and vectors at once: their sums two pairs to a register, their minimum terms
/// (Q4_K, Q5_K) in the 16 lanes of one, lane `4 × v + r`.
_Static_assert(ROW_TILE == 4 && VECTOR_GROUP == 4, "integer_group takes 4 rows and 4 vectors in its 16 lanes");
LOOP X86_TARGET void integer_group(
    int type, const IntegerUnpacked *unpacked, size_t unpackedCount, const BlockScales *blockScales, size_t rows, size_t blocks, GuidedQuantizedVectors x,
    float *outputs, size_t outputStride) {
    const size_t vectors = VECTOR_GROUP, blockCount = blocks / 8, elements = blocks * 32;
    // Lane l of a pair's 16-bit products takes the scale of half l / 8.
    static const int16_t halfOfLane[32] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3};
    const __m512i halfIndex = _mm512_loadu_si512((const void *)halfOfLane);
    const __m512i vectorOfLane = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    // Pair `q` of sums holds those of row `q / 2` with vectors `2 × (q % 2)` (low half) and
    // `2 × (q % 2) + 1` (high half).
    __m512 sums[ROW_TILE * VECTOR_GROUP / 2];
    for (int q = 0; q < ROW_TILE * VECTOR_GROUP / 2; q++) sums[q] = _mm512_setzero_ps();
    __m512 minimumSums = _mm512_setzero_ps();
    for (size_t k = 0; k < blockCount; k++) {
        __m512i products[ROW_TILE * VECTOR_GROUP];
        for (size_t i = 0; i < ROW_TILE * VECTOR_GROUP; i++) products[i] = _mm512_setzero_si512();
        for (size_t p = 4 * k; p < 4 * k + 4; p++) {
            __m512i input[VECTOR_GROUP];
            for (size_t v = 0; v < vectors; v++) input[v] = _mm512_loadu_si512((const void *)(x.values + v * elements + p * 64));
            for (size_t r = 0; r < rows; r++) {
                const IntegerUnpacked *pair = unpacked + r * unpackedCount + p;
                int64_t packedScales;
                memcpy(&packedScales, pair->scales, sizeof packedScales);
                __m512i scales = _mm512_permutexvar_epi16(halfIndex, _mm512_set1_epi64(packedScales));
                for (size_t v = 0; v < vectors; v++) {
                    __m512i in = input[v];
                    // The weights' signs go to the input, as `_mm256_sign_epi8` gives them.
                    if (guided_is_signed(type)) in = _mm512_mask_sub_epi8(in, pair->negative, _mm512_setzero_si512(), in);
                    products[r * vectors + v] = _mm512_dpwssd_epi32(products[r * vectors + v], _mm512_maddubs_epi16(pair->quants, in), scales);
                }
            }
        }
        // The block's scales, lane 4 × v + r (rows beyond `rows` take zeros).
        float rowScales[ROW_TILE] = {0}, rowMinimumScales[ROW_TILE] = {0}, inputScales[VECTOR_GROUP];
        int16_t rowMinimums[ROW_TILE][8] = {{0}};
        for (size_t r = 0; r < rows; r++) {
            const BlockScales *block = blockScales + r * blockCount + k;
            rowScales[r] = block->scale;
            rowMinimumScales[r] = block->minimumScale;
            memcpy(rowMinimums[r], block->minimums, sizeof rowMinimums[r]);
        }
        for (size_t v = 0; v < vectors; v++) inputScales[v] = x.scales[v * blocks + 8 * k];
        __m512 laneInputScales = _mm512_permutexvar_ps(vectorOfLane, _mm512_castps128_ps512(_mm_loadu_ps(inputScales)));
        __m512 laneScales = _mm512_mul_ps(_mm512_broadcast_f32x4(_mm_loadu_ps(rowScales)), laneInputScales);
        for (int q = 0; q < ROW_TILE * VECTOR_GROUP / 2; q++) {
            __m512i low = products[2 * q], high = products[2 * q + 1];
            // The two sub-blocks' halves of each, added: [low's sums, high's sums].
            __m512i halves = _mm512_add_epi32(_mm512_shuffle_i64x2(low, high, 0x44), _mm512_shuffle_i64x2(low, high, 0xEE));
            int r = q / 2, v = 2 * (q % 2);
            __m512i laneIndex = _mm512_mask_set1_epi32(_mm512_set1_epi32(4 * v + r), 0xFF00, 4 * (v + 1) + r);
            sums[q] = _mm512_fmadd_ps(_mm512_permutexvar_ps(laneIndex, laneScales), _mm512_cvtepi32_ps(halves), sums[q]);
        }
        if (!guided_is_signed(type)) {
            // Each vector's and each row's 8 sub-block values as 4 pairs of 16 bits: lane 4 × v + j
            // holds pair j of vector v, lane 4 × r + j pair j of row r.
            __m512i inputPairs = _mm512_setzero_si512(), rowPairs = _mm512_loadu_si512((const void *)rowMinimums);
            for (size_t v = 0; v < vectors; v++) {
                __m128i pairs = _mm256_cvtepi32_epi16(_mm256_loadu_si256((const __m256i *)(x.blockSums + v * blocks + 8 * k)));
                inputPairs = _mm512_inserti32x4(inputPairs, pairs, 0);
                inputPairs = _mm512_alignr_epi32(inputPairs, inputPairs, 4);
            }
            __m512i terms = _mm512_setzero_si512();
            for (int j = 0; j < 4; j++) {
                // Lane 4 × v + r: pair j of row r times pair j of vector v.
                __m512i rowIndex = _mm512_setr_epi32(j, 4 + j, 8 + j, 12 + j, j, 4 + j, 8 + j, 12 + j, j, 4 + j, 8 + j, 12 + j, j, 4 + j, 8 + j, 12 + j);
                __m512i inputIndex = _mm512_add_epi32(_mm512_slli_epi32(vectorOfLane, 2), _mm512_set1_epi32(j));
                terms = _mm512_dpwssd_epi32(terms, _mm512_permutexvar_epi32(rowIndex, rowPairs), _mm512_permutexvar_epi32(inputIndex, inputPairs));
            }
            __m512 laneMinimumScales = _mm512_mul_ps(_mm512_broadcast_f32x4(_mm_loadu_ps(rowMinimumScales)), laneInputScales);
            minimumSums = _mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(laneMinimumScales), _mm512_set1_epi32((int)0x80000000u))), _mm512_cvtepi32_ps(terms), minimumSums);
        }
    }
    float minimumTerms[16];
    _mm512_storeu_ps(minimumTerms, minimumSums);
    for (size_t r = 0; r < rows; r++) {
        for (size_t v = 0; v < vectors; v++) {
            __m512 pair = sums[(r * vectors + v) / 2];
            __m256 lanes = v % 2 ? _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(pair), 1)) : _mm512_castps512_ps256(pair);
            outputs[v * outputStride + r] = horizontal_sum(lanes) + minimumTerms[4 * v + r];
        }
    }
}
#else
/// A block of a row, unpacked: the weights as unsigned bytes (the magnitudes of signed ones, whose
/// signs `signs` holds), and the scales of its two 16-weight halves.
typedef struct {
    __m256i quants;
    __m256i signs;
    float scales[2];
} Unpacked;
#define UNPACKED_COUNT(blocks) (blocks)

/// Unpacks a row into `unpacked`, and its blocks' offsets into `offsets` (then, from
/// `offsets[blocks]` on, Q2_K's half-block offsets).
LOOP X86_TARGET void unpack_row(int type, const uint8_t *row, size_t blocks, Unpacked *unpacked, float *offsets) {
    for (size_t b = 0; b < blocks; b++) {
        Block w = load_block(type, row, b);
        keep_offsets(type, w, b, blocks, offsets);
        unpacked[b].signs = w.quants;
        unpacked[b].quants = guided_is_signed(type) ? _mm256_sign_epi8(w.quants, w.quants) : w.quants;
        unpacked[b].scales[0] = _mm256_cvtss_f32(w.scale);
        unpacked[b].scales[1] = _mm_cvtss_f32(_mm256_extractf128_ps(w.scale, 1));
    }
}

/// `ROWS` (1 or 2) unpacked rows, `unpackedCount` blocks apart, with a group of vectors: the even
/// blocks, then the odd ones, each in their own sums, as `RowSums` sums them (so that only one set
/// of sums is live at a time). Two rows share each input's load and scale.
LOOP X86_TARGET void unpacked_rows_group(
    int type, const Unpacked *unpacked, size_t unpackedCount, const float *rowOffsets, size_t rowCount, size_t blocks,
    GuidedQuantizedVectors x, float *outputs, size_t outputStride) {
    enum { ROWS = 2 };
    size_t elements = blocks * 32;
    __m256 even[ROWS][VECTOR_GROUP];
    for (size_t parity = 0; parity < 2; parity++) {
        __m256 lanes[ROWS][VECTOR_GROUP];
        for (int r = 0; r < ROWS; r++) {
            for (int v = 0; v < VECTOR_GROUP; v++) lanes[r][v] = _mm256_setzero_ps();
        }
        for (size_t b = parity; b < blocks; b += 2) {
            __m256 scales[ROWS];
            for (size_t r = 0; r < rowCount; r++) {
                const Unpacked *w = unpacked + r * unpackedCount + b;
                scales[r] = _mm256_set_m128(_mm_set1_ps(w->scales[1]), _mm_set1_ps(w->scales[0]));
            }
            for (int v = 0; v < VECTOR_GROUP; v++) {
                __m256i loaded = _mm256_loadu_si256((const __m256i *)(x.values + v * elements + b * 32));
                __m256 inputScale = _mm256_set1_ps(x.scales[v * blocks + b]);
                for (size_t r = 0; r < rowCount; r++) {
                    const Unpacked *w = unpacked + r * unpackedCount + b;
                    __m256i input = guided_is_signed(type) ? _mm256_sign_epi8(loaded, w->signs) : loaded;
                    __m256 products = _mm256_cvtepi32_ps(_mm256_madd_epi16(_mm256_maddubs_epi16(w->quants, input), _mm256_set1_epi16(1)));
                    lanes[r][v] = _mm256_fmadd_ps(_mm256_mul_ps(scales[r], inputScale), products, lanes[r][v]);
                }
            }
        }
        for (size_t r = 0; r < rowCount; r++) {
            for (int v = 0; v < VECTOR_GROUP; v++) {
                if (parity == 0) {
                    even[r][v] = lanes[r][v];
                    continue;
                }
                outputs[v * outputStride + r] = horizontal_sum(_mm256_add_ps(even[r][v], lanes[r][v])) +
                    offset_terms(type, rowOffsets + r * 2 * blocks, blocks, vector_at(x, v, blocks));
            }
        }
    }
}

/// The unpacked rows of a tile (`rows` of them, `unpackedCount` blocks apart) with a group of
/// `VECTOR_GROUP` vectors, two rows at a time.
LOOP X86_TARGET void unpacked_group(
    int type, const Unpacked *unpacked, size_t unpackedCount, const float *rowOffsets, const float *tileOffsets, const float *groupSums,
    size_t rows, size_t blocks, GuidedQuantizedVectors x, float *outputs, size_t outputStride) {
    (void)tileOffsets;
    (void)groupSums;
    size_t r = 0;
    for (; r + 2 <= rows; r += 2) {
        unpacked_rows_group(type, unpacked + r * unpackedCount, unpackedCount, rowOffsets + r * 2 * blocks, 2, blocks, x, outputs + r, outputStride);
    }
    if (r < rows) unpacked_rows_group(type, unpacked + r * unpackedCount, unpackedCount, rowOffsets + r * 2 * blocks, 1, blocks, x, outputs + r, outputStride);
}
/// A sub-block of a row of a type that `sums_blocks_in_integers`, unpacked: the magnitudes of the
/// weights, their signs (Q6_K's), and the integer scales of its halves in the 16-bit lanes of its
/// pairs of products (`sub_block_scale`).
typedef struct {
    __m256i quants;
    __m256i signs;
    __m256i scales;
} IntegerUnpacked;
#define INTEGER_UNPACKED_COUNT(blocks) (blocks)

/// Unpacks a row of a type that `sums_blocks_in_integers` into `unpacked`, and the scales and
/// minimums of its blocks of 256 into `blockScales`.
LOOP X86_TARGET void unpack_integer_row(int type, const uint8_t *row, size_t blocks, IntegerUnpacked *unpacked, BlockScales *blockScales) {
    const size_t blockBytes = guided_block_bytes((GuidedTensorType)type);
    for (size_t k = 0; k < blocks / 8; k++) {
        const uint8_t *block = row + k * blockBytes;
        __m256i table = sub_block_scales(type, block, &blockScales[k]);
        for (int p = 0; p < 4; p++) {
            __m256i quants[2];
            sub_block_pair(type, block, p, &quants[0], &quants[1]);
            for (int h = 0; h < 2; h++) {
                IntegerUnpacked *sub = unpacked + 8 * k + 2 * p + h;
                // Q6_K's codes less their offset, as magnitudes and signs.
                __m256i codes = type == GUIDED_TYPE_Q6_K ? _mm256_sub_epi8(quants[h], _mm256_set1_epi8(32)) : quants[h];
                sub->signs = codes;
                sub->quants = guided_is_signed(type) ? _mm256_sign_epi8(codes, codes) : codes;
                sub->scales = sub_block_scale(table, 2 * p + h);
            }
        }
    }
}

/// Each vector's sub-block input sums as 16-bit numbers, 8 per block of 256 (at most 32 × 127 in
/// magnitude), for `integer_rows_group`'s minimum terms.
INLINE X86_TARGET __m128i packed_block_sums(GuidedQuantizedVectors x, size_t k) {
    __m256i sums = _mm256_loadu_si256((const __m256i *)(x.blockSums + 8 * k));
    return _mm_packs_epi32(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
}

/// `count` unpacked rows (1 or 2, a constant where inlined) of a type that
/// `sums_blocks_in_integers`, `unpackedCount` sub-blocks apart, with a group of `VECTOR_GROUP`
/// vectors: each sub-block's weights and scales are loaded once for the group and each vector's
/// bytes once for the rows. The sums of `integer_rows`, lane by lane, and per block the float
/// steps of `add_integer_block`, the group's minimum terms four vectors to a register.
INLINE X86_TARGET void integer_rows_group(
    int type, const IntegerUnpacked *unpacked, size_t unpackedCount, const BlockScales *blockScales, int count, size_t blocks,
    GuidedQuantizedVectors x, float *outputs, size_t outputStride) {
    const size_t blockCount = blocks / 8, elements = blocks * 32;
    __m256 sums[2][VECTOR_GROUP];
    __m128 minimumSums[2] = {_mm_setzero_ps(), _mm_setzero_ps()};
    for (int i = 0; i < count; i++) {
        for (int v = 0; v < VECTOR_GROUP; v++) sums[i][v] = _mm256_setzero_ps();
    }
    for (size_t k = 0; k < blockCount; k++) {
        __m256i products[2][VECTOR_GROUP];
        for (int i = 0; i < count; i++) {
            for (int v = 0; v < VECTOR_GROUP; v++) products[i][v] = _mm256_setzero_si256();
        }
        // One sub-block at a time: unrolled, the loop's loads would outnumber the registers.
#pragma clang loop unroll(disable)
        for (size_t b = 8 * k; b < 8 * k + 8; b++) {
            for (int v = 0; v < VECTOR_GROUP; v++) {
                __m256i input = _mm256_loadu_si256((const __m256i *)(x.values + v * elements + b * 32));
                for (int i = 0; i < count; i++) {
                    const IntegerUnpacked *sub = unpacked + i * unpackedCount + b;
                    __m256i in = guided_is_signed(type) ? _mm256_sign_epi8(input, sub->signs) : input;
                    products[i][v] = add_scaled_pairs(products[i][v], _mm256_maddubs_epi16(sub->quants, in), sub->scales);
                }
            }
        }
        float inputScales[VECTOR_GROUP];
        for (int v = 0; v < VECTOR_GROUP; v++) inputScales[v] = x.scales[v * blocks + 8 * k];
        for (int i = 0; i < count; i++) {
            const BlockScales *block = blockScales + i * blockCount + k;
            for (int v = 0; v < VECTOR_GROUP; v++) sums[i][v] = add_block_sums(sums[i][v], block->scale, inputScales[v], products[i][v]);
            if (guided_is_signed(type)) continue;
            // `minimum_terms` for the four vectors, then `add_minimum_terms` lane by lane.
            __m128i minimums = _mm_loadu_si128((const __m128i *)block->minimums), terms[VECTOR_GROUP];
            for (int v = 0; v < VECTOR_GROUP; v++) terms[v] = _mm_madd_epi16(minimums, packed_block_sums(vector_at(x, v, blocks), k));
            __m128i total = _mm_hadd_epi32(_mm_hadd_epi32(terms[0], terms[1]), _mm_hadd_epi32(terms[2], terms[3]));
            __m128 factor = _mm_xor_ps(_mm_mul_ps(_mm_set1_ps(block->minimumScale), _mm_loadu_ps(inputScales)), _mm_set1_ps(-0.0f));
            minimumSums[i] = _mm_fmadd_ps(factor, _mm_cvtepi32_ps(total), minimumSums[i]);
        }
    }
    for (int i = 0; i < count; i++) {
        float minimums[VECTOR_GROUP];
        _mm_storeu_ps(minimums, minimumSums[i]);
        for (int v = 0; v < VECTOR_GROUP; v++) outputs[v * outputStride + i] = horizontal_sum(sums[i][v]) + minimums[v];
    }
}

/// The unpacked rows of a tile of a type that `sums_blocks_in_integers` (`rows` of them,
/// `unpackedCount` sub-blocks apart) with a group of `VECTOR_GROUP` vectors, two rows at a time.
_Static_assert(VECTOR_GROUP == 4, "integer_rows_group sums the minimum terms of 4 vectors in one register");
LOOP X86_TARGET void integer_group(
    int type, const IntegerUnpacked *unpacked, size_t unpackedCount, const BlockScales *blockScales, size_t rows, size_t blocks, GuidedQuantizedVectors x,
    float *outputs, size_t outputStride) {
    const size_t blockCount = blocks / 8;
    size_t r = 0;
    for (; r + 2 <= rows; r += 2) {
        integer_rows_group(type, unpacked + r * unpackedCount, unpackedCount, blockScales + r * blockCount, 2, blocks, x, outputs + r, outputStride);
    }
    if (r < rows) integer_rows_group(type, unpacked + r * unpackedCount, unpackedCount, blockScales + r * blockCount, 1, blocks, x, outputs + r, outputStride);
}
#endif

/// The first vector of group `g` of a batch of `vectorCount` vectors (at least a group's).
INLINE size_t group_start(size_t g, size_t vectorCount) {
    size_t start = g * VECTOR_GROUP;
    return start + VECTOR_GROUP <= vectorCount ? start : vectorCount - VECTOR_GROUP;
}

/// The products of a batch of at most `BATCH_PASS` vectors: rows a tile at a time, each row
/// unpacked once for all the vectors.
LOOP X86_TARGET void multiply_batch(
    int type, const uint8_t *base, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd, GuidedQuantizedVectors inputs,
    size_t vectorCount, float *outputs, size_t outputStride) {
    // The types that `sums_blocks_in_integers` unpack into their own form (and the others only
    // into `unpacked`).
    int integers = sums_blocks_in_integers(type);
    size_t unpackedCount = integers ? 1 : UNPACKED_COUNT(blocks), integerCount = integers ? INTEGER_UNPACKED_COUNT(blocks) : 1;
    Unpacked unpacked[ROW_TILE * unpackedCount];
    IntegerUnpacked integerUnpacked[ROW_TILE * integerCount];
    BlockScales blockScales[ROW_TILE * (integers ? blocks / 8 : 1)];
    float rowOffsets[ROW_TILE * 2 * blocks], tileOffsets[ROW_TILE * 2 * blocks];
    // The groups of vectors: from each multiple of `VECTOR_GROUP`, and where two or more vectors
    // are left after those, one more ending with the last vector (it takes again some vectors of
    // the group before, whose products it writes again, the same floats): a group costs less
    // than two vectors taken one at a time by `one_row`, more than one.
    size_t remainder = vectorCount % VECTOR_GROUP;
    size_t groups = vectorCount < VECTOR_GROUP ? 0 : vectorCount / VECTOR_GROUP + (remainder >= 2);
    // The vectors from `firstAlone` on are taken one at a time.
    size_t firstAlone = groups == 0 ? 0 : remainder == 1 ? vectorCount - 1 : vectorCount;
    // Each group's input sums block by block (then Q2_K's half sums), for the offset terms of
    // full tiles.
    size_t summedGroups = X86_VNNI && !guided_is_signed(type) && !integers ? groups : 0;
    size_t terms = type == GUIDED_TYPE_Q2_K ? 2 * blocks : blocks;
    float groupSums[summedGroups * VECTOR_GROUP * terms + 1];
    for (size_t g = 0; g < summedGroups; g++) {
        for (size_t v = 0; v < VECTOR_GROUP; v++) {
            GuidedQuantizedVectors vector = vector_at(inputs, group_start(g, vectorCount) + v, blocks);
            for (size_t i = 0; i < terms; i++) {
                groupSums[(g * terms + i) * VECTOR_GROUP + v] = i < blocks ? vector.sums[i] : vector.halfSums[i - blocks];
            }
        }
    }
    // Fewer vectors than a group (sequences decoded together) take the rows as they are.
    int unpacks = groups > 0;
    for (size_t tile = rowStart; tile < rowEnd; tile += ROW_TILE) {
        size_t rows = rowEnd - tile < ROW_TILE ? rowEnd - tile : ROW_TILE;
        for (size_t r = 0; unpacks && r < rows; r++) {
            const uint8_t *row = base + (tile + r) * rowBytes;
            if (integers) {
                unpack_integer_row(type, row, blocks, integerUnpacked + r * integerCount, blockScales + r * (blocks / 8));
            } else {
                unpack_row(type, row, blocks, unpacked + r * unpackedCount, rowOffsets + r * 2 * blocks);
            }
        }
        // The offsets block by block, for the offset terms of a full tile.
        if (X86_VNNI && unpacks && rows == ROW_TILE && !guided_is_signed(type)) {
            for (size_t i = 0; i < terms; i++) {
                for (size_t r = 0; r < ROW_TILE; r++) tileOffsets[i * ROW_TILE + r] = rowOffsets[r * 2 * blocks + i];
            }
        }
        for (size_t g = 0; g < groups; g++) {
            size_t v = group_start(g, vectorCount);
            GuidedQuantizedVectors group = vector_at(inputs, v, blocks);
            const float *sums = groupSums + g * VECTOR_GROUP * terms;
            float *groupOutputs = outputs + v * outputStride + tile;
            // A full tile with the tile's size as a constant, so that its sums stay in registers.
            if (integers) {
                if (rows == ROW_TILE) {
                    integer_group(type, integerUnpacked, integerCount, blockScales, ROW_TILE, blocks, group, groupOutputs, outputStride);
                } else {
                    integer_group(type, integerUnpacked, integerCount, blockScales, rows, blocks, group, groupOutputs, outputStride);
                }
            } else if (rows == ROW_TILE) {
                unpacked_group(type, unpacked, unpackedCount, rowOffsets, tileOffsets, sums, ROW_TILE, blocks, group, groupOutputs, outputStride);
            } else {
                unpacked_group(type, unpacked, unpackedCount, rowOffsets, tileOffsets, sums, rows, blocks, group, groupOutputs, outputStride);
            }
        }
        for (size_t v = firstAlone; v < vectorCount; v++) {
            for (size_t r = 0; r < rows; r++) {
                outputs[v * outputStride + tile + r] = one_row(type, base + (tile + r) * rowBytes, blocks, vector_at(inputs, v, blocks));
            }
        }
    }
}

LOOP X86_TARGET void multiply_rows(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    const uint8_t *base = (const uint8_t *)matrix;
    if (vectorCount == 1) {
        // A row of each half at a time: each half is read as one stream, from one row's end to
        // the next one's start, as the hardware's prefetchers follow it.
        size_t prefetch = guided_stream_prefetch_distance(), half = (rowEnd - rowStart) / 2;
        for (size_t row = rowStart; row < rowStart + half; row++) {
            size_t other = row + half;
            two_rows(type, base + row * rowBytes, base + other * rowBytes, blocks, inputs, outputs + row, outputs + other, prefetch);
        }
        if ((rowEnd - rowStart) % 2) outputs[rowEnd - 1] = one_row(type, base + (rowEnd - 1) * rowBytes, blocks, inputs);
        return;
    }
    // At most `BATCH_PASS` vectors per pass over the matrix.
    for (size_t start = 0; start < vectorCount; start += BATCH_PASS) {
        size_t count = vectorCount - start < BATCH_PASS ? vectorCount - start : BATCH_PASS;
        multiply_batch(type, base, rowBytes, blocks, rowStart, rowEnd, vector_at(inputs, start, blocks), count, outputs + start * outputStride, outputStride);
    }
}

static X86_TARGET void multiply(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    inputs = guided_offset_sums(type, inputs);
    GUIDED_MULTIPLY_BY_TYPE(multiply_rows, type, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride);
}


/// The sums of the lanes of four vectors, as the four lanes of one.
INLINE X86_TARGET __m128 four_sums(__m256 a, __m256 b, __m256 c, __m256 d) {
    __m256 pairs = _mm256_hadd_ps(_mm256_hadd_ps(a, b), _mm256_hadd_ps(c, d));
    return _mm_add_ps(_mm256_castps256_ps128(pairs), _mm256_extractf128_ps(pairs, 1));
}

/// Eight half-precision numbers as floats.
INLINE X86_TARGET __m256 load_halves(const uint16_t *pointer) { return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)pointer)); }

/// Eight floats rounded to half precision (ties to even), as floats.
INLINE X86_TARGET __m256 rounded_to_half(__m256 v) { return _mm256_cvtph_ps(_mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT)); }

static X86_TARGET void attend(
    const float *query, const uint16_t *keys, const uint16_t *values, size_t stride, size_t count, size_t dimension,
    float scale, int halfSums, float *scores, float *output) {
    if (dimension % 8 != 0) {
        guided_attend_generic(query, keys, values, stride, count, dimension, scale, halfSums, scores, output);
        return;
    }
    if (halfSums) {
        // The rounded query waits in `output`, which the sums clear.
        for (size_t i = 0; i < dimension; i += 8) _mm256_storeu_ps(output + i, rounded_to_half(_mm256_loadu_ps(query + i)));
        query = output;
    }
    // Scores four positions at a time, in four independent sums.
    size_t p = 0;
    for (; p + 4 <= count; p += 4) {
        const uint16_t *key = keys + p * stride;
        __m256 sums[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
        for (size_t i = 0; i < dimension; i += 8) {
            __m256 q = _mm256_loadu_ps(query + i);
            for (int k = 0; k < 4; k++) sums[k] = _mm256_fmadd_ps(q, load_halves(key + k * stride + i), sums[k]);
        }
        _mm_storeu_ps(scores + p, _mm_mul_ps(four_sums(sums[0], sums[1], sums[2], sums[3]), _mm_set1_ps(scale)));
    }
    for (; p < count; p++) {
        __m256 sum = _mm256_setzero_ps();
        for (size_t i = 0; i < dimension; i += 8) sum = _mm256_fmadd_ps(_mm256_loadu_ps(query + i), load_halves(keys + p * stride + i), sum);
        scores[p] = horizontal_sum(sum) * scale;
    }
    if (halfSums) {
        // As `guided_half_sums`, eight elements at a time.
        float largest = -INFINITY, total = 0;
        for (size_t i = 0; i < dimension; i += 8) _mm256_storeu_ps(output + i, _mm256_setzero_ps());
        for (size_t p = 0; p < count; p++) {
            float score = scores[p], rescale = 1, weight = 1;
            if (score > largest) {
                rescale = expf(largest - score);
                largest = score;
                __m256 factor = _mm256_set1_ps(rescale);
                for (size_t i = 0; i < dimension; i += 8) _mm256_storeu_ps(output + i, rounded_to_half(_mm256_mul_ps(_mm256_loadu_ps(output + i), factor)));
            } else {
                weight = expf(score - largest);
            }
            const uint16_t *value = values + p * stride;
            __m256 w = _mm256_set1_ps(weight);
            for (size_t i = 0; i < dimension; i += 8) {
                _mm256_storeu_ps(output + i, rounded_to_half(_mm256_fmadd_ps(load_halves(value + i), w, _mm256_loadu_ps(output + i))));
            }
            total = fmaf(total, rescale, weight);
        }
        __m256 inverse = _mm256_set1_ps(total == 0 ? 0 : 1 / total);
        for (size_t i = 0; i < dimension; i += 8) _mm256_storeu_ps(output + i, _mm256_mul_ps(_mm256_loadu_ps(output + i), inverse));
        return;
    }
    float inverse = 1 / guided_softmax(scores, count);
    // 64 columns at a time in eight independent sums, then 8 at a time.
    size_t i = 0;
    for (; i + 64 <= dimension; i += 64) {
        __m256 sums[8];
        for (int k = 0; k < 8; k++) sums[k] = _mm256_setzero_ps();
        for (size_t p = 0; p < count; p++) {
            __m256 weight = _mm256_set1_ps(scores[p]);
            const uint16_t *value = values + p * stride + i;
            for (int k = 0; k < 8; k++) sums[k] = _mm256_fmadd_ps(weight, load_halves(value + 8 * k), sums[k]);
        }
        for (int k = 0; k < 8; k++) _mm256_storeu_ps(output + i + 8 * k, _mm256_mul_ps(sums[k], _mm256_set1_ps(inverse)));
    }
    for (; i < dimension; i += 8) {
        __m256 sum = _mm256_setzero_ps();
        for (size_t p = 0; p < count; p++) sum = _mm256_fmadd_ps(_mm256_set1_ps(scores[p]), load_halves(values + p * stride + i), sum);
        _mm256_storeu_ps(output + i, _mm256_mul_ps(sum, _mm256_set1_ps(inverse)));
    }
}

