#ifndef GUIDED_KERNEL_SUPPORT_H
#define GUIDED_KERNEL_SUPPORT_H

#include "GuidedKernels.h"
#include <math.h>
#include <string.h>

/// The loops of the products, which take no vector by value: always inlined in optimized builds,
/// so that each weight type's copy of a loop reads only its own layout; called in builds without
/// optimization, where every inlined copy would keep its own locals in one frame (over a megabyte
/// for the x86-64 products, more than a worker thread's stack). Functions that take or return
/// vectors stay inlined: called, their vectors would be passed as the file's baseline target
/// passes them, not as their own target attribute does.
#if defined(__OPTIMIZE__)
#define GUIDED_LOOP_INLINE __attribute__((always_inline)) static inline
#else
#define GUIDED_LOOP_INLINE static inline
#endif

// A switch on a tensor type lists every type: a type added to `GuidedTensorType` and forgotten
// in a kernel is a compile error, not a silent misreading of its blocks.
#pragma clang diagnostic error "-Wswitch"

/// The types whose products do not run on the integer kernels, for the switches that must
/// name every type.
#define GUIDED_TYPES_WITHOUT_INTEGER_KERNEL \
    case GUIDED_TYPE_F32:                   \
    case GUIDED_TYPE_F16:                   \
    case GUIDED_TYPE_BF16:                  \
    case GUIDED_TYPE_Q8_1:                  \
    case GUIDED_TYPE_Q8_K

/// Elements per block of a tensor type.
static inline size_t guided_block_size(GuidedTensorType type) {
    switch (type) {
    case GUIDED_TYPE_F32: case GUIDED_TYPE_F16: case GUIDED_TYPE_BF16: return 1;
    case GUIDED_TYPE_Q4_0: case GUIDED_TYPE_Q4_1: case GUIDED_TYPE_Q5_0: case GUIDED_TYPE_Q5_1: case GUIDED_TYPE_Q8_0: case GUIDED_TYPE_Q8_1:
    case GUIDED_TYPE_IQ4_NL: return 32;
    case GUIDED_TYPE_Q2_K: case GUIDED_TYPE_Q3_K: case GUIDED_TYPE_Q4_K: case GUIDED_TYPE_Q5_K: case GUIDED_TYPE_Q6_K: case GUIDED_TYPE_Q8_K:
        return 256;
    }
    return 0;
}

/// Bytes per block of a tensor type: a half-precision scale, Q4_1's and Q5_1's half-precision
/// minimum, Q5's 32 fifth bits, and the quants (two 4-bit weights per byte: byte i holds weight i
/// in its low half and weight i + 16 in its high half; one signed byte per weight for Q8_0); the
/// K-quants' blocks of 256 as llama.cpp lays them out.
static inline size_t guided_block_bytes(GuidedTensorType type) {
    switch (type) {
    case GUIDED_TYPE_F32: return 4;
    case GUIDED_TYPE_F16: case GUIDED_TYPE_BF16: return 2;
    case GUIDED_TYPE_Q4_0: case GUIDED_TYPE_IQ4_NL: return 18;
    case GUIDED_TYPE_Q4_1: return 20;
    case GUIDED_TYPE_Q5_0: return 22;
    case GUIDED_TYPE_Q5_1: return 24;
    case GUIDED_TYPE_Q8_0: return 34;
    case GUIDED_TYPE_Q8_1: return 36;
    case GUIDED_TYPE_Q2_K: return 84;
    case GUIDED_TYPE_Q3_K: return 110;
    case GUIDED_TYPE_Q4_K: return 144;
    case GUIDED_TYPE_Q5_K: return 176;
    case GUIDED_TYPE_Q6_K: return 210;
    case GUIDED_TYPE_Q8_K: return 292;
    }
    return 0;
}

/// The form in which products with weights of a type take their inputs, as llama.cpp's
/// `vec_dot_type` has it.
static inline GuidedInputFormat guided_input_format(GuidedTensorType type) {
    switch (type) {
    case GUIDED_TYPE_Q4_0: case GUIDED_TYPE_Q4_1: case GUIDED_TYPE_Q5_0: case GUIDED_TYPE_Q5_1: case GUIDED_TYPE_Q8_0: case GUIDED_TYPE_IQ4_NL:
        return GUIDED_INPUT_BLOCKS32;
    case GUIDED_TYPE_Q2_K: case GUIDED_TYPE_Q3_K: case GUIDED_TYPE_Q4_K: case GUIDED_TYPE_Q5_K: case GUIDED_TYPE_Q6_K:
        return GUIDED_INPUT_BLOCKS256;
    case GUIDED_TYPE_F16: return GUIDED_INPUT_HALF;
    case GUIDED_TYPE_BF16: return GUIDED_INPUT_BFLOAT;
    case GUIDED_TYPE_F32: case GUIDED_TYPE_Q8_1: case GUIDED_TYPE_Q8_K: return GUIDED_INPUT_FLOAT;
    }
    return GUIDED_INPUT_FLOAT;
}

/// Whether a type's blocks hold 256 weights (eight sub-blocks of 32).
static inline int guided_is_k_quant(int type) {
    return guided_block_size((GuidedTensorType)type) == 256;
}

/// The bytes of the block that holds sub-block `b` (of 32 weights) of a row.
static inline const uint8_t *guided_block_of(int type, const uint8_t *row, size_t b) {
    return guided_is_k_quant(type) ? row + (b / 8) * guided_block_bytes((GuidedTensorType)type) : row + b * guided_block_bytes((GuidedTensorType)type);
}

/// Whether a type's weights are signed codes (products with the sign trick) rather than unsigned
/// codes with an offset or a minimum.
static inline int guided_is_signed(int type) {
    return type == GUIDED_TYPE_Q8_0 || type == GUIDED_TYPE_Q3_K || type == GUIDED_TYPE_Q6_K || type == GUIDED_TYPE_IQ4_NL;
}

/// The signed 6-bit scale (of 16) of 16-element group `index` of a Q3_K block, packed in 12 bytes.
static inline int guided_q3k_scale(const uint8_t *scales, int index) {
    int low = (scales[index % 8] >> (4 * (index / 8))) & 0x0F;
    int high = (scales[8 + index % 4] >> (2 * (index / 4))) & 3;
    return (low | high << 4) - 32;
}

/// The values of IQ4_NL's 4-bit codes.
static const int8_t guided_nonlinear_values[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

/// The 6-bit scale and minimum of sub-block `j` of a Q4_K or Q5_K block, packed in 12 bytes.
static inline void guided_scale_and_minimum(const uint8_t *scales, int j, int *scale, int *minimum) {
    if (j < 4) {
        *scale = scales[j] & 63;
        *minimum = scales[j + 4] & 63;
    } else {
        *scale = (scales[j + 4] & 0x0F) | ((scales[j - 4] >> 6) << 4);
        *minimum = (scales[j + 4] >> 4) | ((scales[j] >> 6) << 4);
    }
}

/// `multiply_rows(type, ...)` with `type` as a constant of each weight type, so that each
/// inlined copy of the loops reads only its block layout.
#define GUIDED_MULTIPLY_BY_TYPE(multiply_rows, type, ...)                  \
    switch ((GuidedTensorType)(type)) {                                    \
    case GUIDED_TYPE_Q8_0: multiply_rows(GUIDED_TYPE_Q8_0, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q4_0: multiply_rows(GUIDED_TYPE_Q4_0, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q4_1: multiply_rows(GUIDED_TYPE_Q4_1, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q5_0: multiply_rows(GUIDED_TYPE_Q5_0, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q5_1: multiply_rows(GUIDED_TYPE_Q5_1, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q2_K: multiply_rows(GUIDED_TYPE_Q2_K, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q3_K: multiply_rows(GUIDED_TYPE_Q3_K, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q4_K: multiply_rows(GUIDED_TYPE_Q4_K, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q5_K: multiply_rows(GUIDED_TYPE_Q5_K, __VA_ARGS__); break; \
    case GUIDED_TYPE_Q6_K: multiply_rows(GUIDED_TYPE_Q6_K, __VA_ARGS__); break; \
    case GUIDED_TYPE_IQ4_NL: multiply_rows(GUIDED_TYPE_IQ4_NL, __VA_ARGS__); break; \
    GUIDED_TYPES_WITHOUT_INTEGER_KERNEL: break;                           \
    }

/// The offset of a block's quants (Q4_0, Q4_1, Q8_0).
static inline size_t guided_quant_offset(int type) {
    return type == GUIDED_TYPE_Q4_1 ? 4 : 2;
}

static inline uint16_t guided_load_u16(const uint8_t *pointer) {
    uint16_t value;
    memcpy(&value, pointer, 2);
    return value;
}

/// An IEEE half-precision number as a float: the exponent and mantissa moved into place and the
/// exponent rebased by one multiplication, which also gives subnormals their value.
static inline float guided_half_to_float(uint16_t bits) {
#if defined(__aarch64__)
    __fp16 half;
    memcpy(&half, &bits, 2);
    return (float)half;
#else
    union {
        uint32_t bits;
        float value;
    } magnitude = {(uint32_t)(bits & 0x7FFFu) << 13}, result;
    if ((bits & 0x7C00u) == 0x7C00u) {
        magnitude.bits |= 0x7F800000u;  // infinity or NaN
        result.value = magnitude.value;
    } else {
        result.value = magnitude.value * 0x1p112f;
    }
    result.bits |= (uint32_t)(bits & 0x8000u) << 16;
    return result.value;
#endif
}

/// Rounds to the nearest integer, ties to even, for |x| below 2^22 (as the vector kernels' rounding
/// instructions do), in plain float arithmetic.
static inline float guided_round(float x) {
    const float shift = 12582912.0f;  // 1.5 × 2^23
    return (x + shift) - shift;
}

/// `x` as the nearest half-precision number (ties to even, as the conversion instructions round):
/// infinity beyond 65504 and its rounding, subnormals below 2^-14, NaN kept.
static inline uint16_t guided_float_to_half(float x) {
#if defined(__aarch64__)
    __fp16 half = (__fp16)x;
    uint16_t bits;
    memcpy(&bits, &half, 2);
    return bits;
#else
    uint32_t bits;
    memcpy(&bits, &x, 4);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    uint32_t magnitude = bits & 0x7FFFFFFFu;
    if (magnitude > 0x7F800000u) return sign | 0x7E00u;
    // 65520 and beyond round to infinity.
    if (magnitude >= 0x477FF000u) return sign | 0x7C00u;
    // Below 2^-14, multiples of 2^-24 (the largest rounds up to the smallest normal number).
    if (magnitude < 0x38800000u) return sign | (uint16_t)guided_round(fabsf(x) * 0x1p24f);
    // 13 bits of the mantissa dropped, rounded to even, and the exponent rebased (127 to 15).
    uint32_t rounded = magnitude + 0x0FFFu + ((magnitude >> 13) & 1u);
    return sign | (uint16_t)((rounded - 0x38000000u) >> 13);
#endif
}

/// `x` rounded to the nearest half-precision number, as a float.
static inline float guided_rounded_to_half(float x) { return guided_half_to_float(guided_float_to_half(x)); }

/// `x` with the sums that the offsets of `type` take: the rounded ones for Q4_1 and Q5_1, whose
/// minimums llama.cpp multiplies by its Q8_1 blocks' 16-bit sums.
static inline GuidedQuantizedVectors guided_offset_sums(int type, GuidedQuantizedVectors x) {
    if (type == GUIDED_TYPE_Q4_1 || type == GUIDED_TYPE_Q5_1) x.sums = x.roundedSums;
    return x;
}

extern const GuidedKernelTable guided_portable_kernels;
#if defined(__x86_64__)
/// How far ahead of the block being read the products with one vector, which stream the matrix
/// from memory once, ask for the next rows' bytes: a page ahead on Intel CPUs, whose hardware
/// prefetchers stop at page boundaries, 256 bytes elsewhere.
size_t guided_stream_prefetch_distance(void);
extern const GuidedKernelTable guided_avx2_kernels;
extern const GuidedKernelTable guided_avx512_kernels;
#endif
#if defined(__aarch64__)
extern const GuidedKernelTable guided_neon_kernels;
extern const GuidedKernelTable guided_neon_dot_product_kernels;
#endif

/// Softmax of `count` scores in place (the largest subtracted first), returning their sum.
static inline float guided_softmax(float *scores, size_t count) {
    float largest = -INFINITY;
    for (size_t p = 0; p < count; p++) largest = scores[p] > largest ? scores[p] : largest;
    float total = 0;
    for (size_t p = 0; p < count; p++) {
        scores[p] = expf(scores[p] - largest);
        total += scores[p];
    }
    return total;
}

/// The dot product of `count` floats with `count` half-precision numbers, in eight running sums.
static inline float guided_dot_halves(const float *left, const uint16_t *right, size_t count) {
    float sums[8] = {0};
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        for (int lane = 0; lane < 8; lane++) sums[lane] += left[i + lane] * guided_half_to_float(right[i + lane]);
    }
    float total = ((sums[0] + sums[4]) + (sums[1] + sums[5])) + ((sums[2] + sums[6]) + (sums[3] + sums[7]));
    for (; i < count; i++) total += left[i] * guided_half_to_float(right[i]);
    return total;
}

/// The sums of `halfSums` attention (see `GuidedKernelTable.attend`), after the scores: position
/// by position, `output` (16-bit numbers held in floats) is rescaled when a score is the largest
/// so far and takes the position's value times its weight, each result rounded to 16 bits; then
/// it is divided by the weights' sum.
static inline void guided_half_sums(
    const float *scores, const uint16_t *values, size_t stride, size_t count, size_t dimension, float *output) {
    float largest = -INFINITY, total = 0;
    for (size_t i = 0; i < dimension; i++) output[i] = 0;
    for (size_t p = 0; p < count; p++) {
        float score = scores[p], rescale = 1, weight = 1;
        if (score > largest) {
            rescale = expf(largest - score);
            largest = score;
            for (size_t i = 0; i < dimension; i++) output[i] = guided_rounded_to_half(output[i] * rescale);
        } else {
            weight = expf(score - largest);
        }
        const uint16_t *value = values + p * stride;
        for (size_t i = 0; i < dimension; i++) output[i] = guided_rounded_to_half(fmaf(guided_half_to_float(value[i]), weight, output[i]));
        total = fmaf(total, rescale, weight);
    }
    float inverse = total == 0 ? 0 : 1 / total;
    for (size_t i = 0; i < dimension; i++) output[i] *= inverse;
}

/// Attention in plain C (see `GuidedKernelTable.attend`), for the variants without their own.
static inline void guided_attend_generic(
    const float *query, const uint16_t *keys, const uint16_t *values, size_t stride, size_t count, size_t dimension, float scale,
    int halfSums, float *scores, float *output) {
    if (halfSums) {
        // The rounded query waits in `output`, which the sums clear.
        for (size_t i = 0; i < dimension; i++) output[i] = guided_rounded_to_half(query[i]);
        query = output;
    }
    for (size_t p = 0; p < count; p++) scores[p] = guided_dot_halves(query, keys + p * stride, dimension) * scale;
    if (halfSums) {
        guided_half_sums(scores, values, stride, count, dimension, output);
        return;
    }
    float inverse = 1 / guided_softmax(scores, count);
    for (size_t i = 0; i < dimension; i++) output[i] = 0;
    for (size_t p = 0; p < count; p++) {
        const uint16_t *value = values + p * stride;
        float weight = scores[p] * inverse;
        for (size_t i = 0; i < dimension; i++) output[i] += weight * guided_half_to_float(value[i]);
    }
}

#endif
