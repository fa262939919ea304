#ifndef GUIDED_KERNEL_SUPPORT_H
#define GUIDED_KERNEL_SUPPORT_H

#include "GuidedKernels.h"
#include <math.h>
#include <string.h>

/// Bytes per block of 32 weights: a half-precision scale, Q4_1's half-precision minimum, and the
/// quants (two 4-bit weights per byte: byte i holds weight i in its low half and weight i + 16 in
/// its high half; one signed byte per weight for Q8_0).
static inline size_t guided_block_bytes(int type) {
    return type == GUIDED_WEIGHTS_Q4_1 ? 20 : type == GUIDED_WEIGHTS_Q8_0 ? 34 : 18;
}

/// `multiply_rows(type, ...)` with `type` as a constant of each weight type, so that each
/// inlined copy of the loops reads only its block layout.
#define GUIDED_MULTIPLY_BY_TYPE(multiply_rows, type, ...)                  \
    switch (type) {                                                        \
    case GUIDED_WEIGHTS_Q4_0: multiply_rows(GUIDED_WEIGHTS_Q4_0, __VA_ARGS__); break; \
    case GUIDED_WEIGHTS_Q4_1: multiply_rows(GUIDED_WEIGHTS_Q4_1, __VA_ARGS__); break; \
    default: multiply_rows(GUIDED_WEIGHTS_Q8_0, __VA_ARGS__); break;      \
    }

/// The offset of a block's quants.
static inline size_t guided_quant_offset(int type) {
    return type == GUIDED_WEIGHTS_Q4_1 ? 4 : 2;
}

static inline uint16_t guided_load_u16(const uint8_t *pointer) {
    uint16_t value;
    memcpy(&value, pointer, 2);
    return value;
}

/// An IEEE half-precision number as a float: the exponent and mantissa moved into place and the
/// exponent rebased by one multiplication, which also gives subnormals their value.
static inline float guided_half_to_float(uint16_t bits) {
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
}

/// Rounds to the nearest integer, ties to even, for |x| below 2^22 (as the vector kernels' rounding
/// instructions do), in plain float arithmetic.
static inline float guided_round(float x) {
    const float shift = 12582912.0f;  // 1.5 × 2^23
    return (x + shift) - shift;
}

extern const GuidedKernelTable guided_portable_kernels;
#if defined(__x86_64__)
extern const GuidedKernelTable guided_avx2_kernels;
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

#endif
