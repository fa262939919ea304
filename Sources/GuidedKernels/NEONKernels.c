// The kernels in NEON instructions (every arm64 CPU), with the dot-product instructions where the
// build's target has them (Apple's M-series and other Armv8.4 cores).
#if defined(__aarch64__)
#include "KernelSupport.h"
#include <arm_neon.h>

#define INLINE __attribute__((always_inline)) static inline

INLINE float half_to_float(const uint8_t *pointer) {
    __fp16 value;
    memcpy(&value, pointer, 2);
    return (float)value;
}

static void quantize(const float *input, size_t count, GuidedQuantizedVectors output) {
    for (size_t block = 0; block < count / 32; block++) {
        const float *x = input + block * 32;
        float32x4_t v[8];
        float32x4_t largest = vdupq_n_f32(0);
        for (int i = 0; i < 8; i++) {
            v[i] = vld1q_f32(x + 4 * i);
            largest = vmaxq_f32(largest, vabsq_f32(v[i]));
        }
        float scale = vmaxvq_f32(largest) / 127;
        float inverse = scale > 0 ? 1 / scale : 0;
        int32x4_t sum = vdupq_n_s32(0);
        int8_t *target = output.values + block * 32;
        for (int i = 0; i < 8; i += 2) {
            // Rounded to nearest, ties to even, as the other variants round.
            int32x4_t first = vcvtnq_s32_f32(vmulq_n_f32(v[i], inverse));
            int32x4_t second = vcvtnq_s32_f32(vmulq_n_f32(v[i + 1], inverse));
            sum = vaddq_s32(sum, vaddq_s32(first, second));
            int16x8_t words = vcombine_s16(vqmovn_s32(first), vqmovn_s32(second));
            vst1_s8(target + 4 * i, vqmovn_s16(words));
        }
        output.scales[block] = scale;
        output.sums[block] = scale * (float)vaddvq_s32(sum);
    }
}

/// The integer products of 32 weights (as two halves of 16 signed bytes) with 32 input bytes,
/// added to `sums`.
INLINE int32x4_t add_products(int32x4_t sums, int8x16_t low, int8x16_t high, const int8_t *x) {
    int8x16_t x0 = vld1q_s8(x), x1 = vld1q_s8(x + 16);
#if defined(__ARM_FEATURE_DOTPROD)
    return vdotq_s32(vdotq_s32(sums, low, x0), high, x1);
#else
    int16x8_t p0 = vmull_s8(vget_low_s8(low), vget_low_s8(x0));
    int16x8_t p1 = vmull_high_s8(low, x0);
    int16x8_t p2 = vmull_s8(vget_low_s8(high), vget_low_s8(x1));
    int16x8_t p3 = vmull_high_s8(high, x1);
    sums = vpadalq_s16(sums, p0);
    sums = vpadalq_s16(sums, p1);
    sums = vpadalq_s16(sums, p2);
    return vpadalq_s16(sums, p3);
#endif
}

INLINE float row_product(int type, const uint8_t *row, size_t blocks, GuidedQuantizedVectors x) {
    size_t blockBytes = guided_block_bytes(type);
    float32x4_t total = vdupq_n_f32(0);
    float offsets = 0;
    for (size_t b = 0; b < blocks; b++) {
        const uint8_t *pointer = row + b * blockBytes;
        float scale = half_to_float(pointer);
        int8x16_t low, high;
        if (type == GUIDED_WEIGHTS_Q8_0) {
            low = vld1q_s8((const int8_t *)(pointer + 2));
            high = vld1q_s8((const int8_t *)(pointer + 18));
        } else {
            uint8x16_t packed = vld1q_u8(pointer + guided_quant_offset(type));
            low = vreinterpretq_s8_u8(vandq_u8(packed, vdupq_n_u8(0x0F)));
            high = vreinterpretq_s8_u8(vshrq_n_u8(packed, 4));
            offsets += (type == GUIDED_WEIGHTS_Q4_1 ? half_to_float(pointer + 2) : -8 * scale) * x.sums[b];
        }
        int32x4_t sums = add_products(vdupq_n_s32(0), low, high, x.values + b * 32);
        total = vfmaq_n_f32(total, vcvtq_f32_s32(sums), scale * x.scales[b]);
    }
    return vaddvq_f32(total) + offsets;
}

INLINE void multiply_rows(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    for (size_t row = rowStart; row < rowEnd; row++) {
        const uint8_t *pointer = (const uint8_t *)matrix + row * rowBytes;
        for (size_t v = 0; v < vectorCount; v++) {
            GuidedQuantizedVectors x = {inputs.values + v * blocks * 32, inputs.scales + v * blocks, inputs.sums + v * blocks};
            outputs[v * outputStride + row] = row_product(type, pointer, blocks, x);
        }
    }
}

static void multiply(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    // One copy of the loops per type, so that each reads only its block layout.
    switch (type) {
    case GUIDED_WEIGHTS_Q4_0:
        multiply_rows(GUIDED_WEIGHTS_Q4_0, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride);
        break;
    case GUIDED_WEIGHTS_Q4_1:
        multiply_rows(GUIDED_WEIGHTS_Q4_1, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride);
        break;
    default:
        multiply_rows(GUIDED_WEIGHTS_Q8_0, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride);
        break;
    }
}

INLINE float dot(const float *left, const float *right, size_t count) {
    float32x4_t sum0 = vdupq_n_f32(0), sum1 = vdupq_n_f32(0);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        sum0 = vfmaq_f32(sum0, vld1q_f32(left + i), vld1q_f32(right + i));
        sum1 = vfmaq_f32(sum1, vld1q_f32(left + i + 4), vld1q_f32(right + i + 4));
    }
    float total = vaddvq_f32(vaddq_f32(sum0, sum1));
    for (; i < count; i++) total += left[i] * right[i];
    return total;
}

static void attend(
    const float *query, const float *keys, const float *values, size_t stride, size_t count, size_t dimension,
    float scale, float *scores, float *output) {
    for (size_t p = 0; p < count; p++) scores[p] = dot(query, keys + p * stride, dimension) * scale;
    float inverse = 1 / guided_softmax(scores, count);
    size_t i = 0;
    for (; i + 16 <= dimension; i += 16) {
        float32x4_t sums[4] = {vdupq_n_f32(0), vdupq_n_f32(0), vdupq_n_f32(0), vdupq_n_f32(0)};
        for (size_t p = 0; p < count; p++) {
            const float *value = values + p * stride + i;
            for (int k = 0; k < 4; k++) sums[k] = vfmaq_n_f32(sums[k], vld1q_f32(value + 4 * k), scores[p]);
        }
        for (int k = 0; k < 4; k++) vst1q_f32(output + i + 4 * k, vmulq_n_f32(sums[k], inverse));
    }
    for (; i < dimension; i++) {
        float sum = 0;
        for (size_t p = 0; p < count; p++) sum += scores[p] * values[p * stride + i];
        output[i] = sum * inverse;
    }
}

const GuidedKernelTable guided_neon_kernels = {quantize, multiply, attend};
#endif
