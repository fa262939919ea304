// The kernels in NEON instructions (every arm64 CPU), the products in two versions: with the
// dot-product instructions (Armv8.2's optional `sdot`: Apple's M-series, Neoverse, Cortex-A76 and
// later), compiled for them with a target attribute and chosen where the CPU reports them, and
// with widening multiplications everywhere else.
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
        int32x4_t sum = vdupq_n_s32(0), half = vdupq_n_s32(0);
        int8_t *target = output.values + block * 32;
        for (int i = 0; i < 8; i += 2) {
            // The first 16 elements' sum, for Q2_K's minimums.
            if (i == 4) half = sum;
            // Rounded to nearest, ties to even, as the other variants round.
            int32x4_t first = vcvtnq_s32_f32(vmulq_n_f32(v[i], inverse));
            int32x4_t second = vcvtnq_s32_f32(vmulq_n_f32(v[i + 1], inverse));
            sum = vaddq_s32(sum, vaddq_s32(first, second));
            int16x8_t words = vcombine_s16(vqmovn_s32(first), vqmovn_s32(second));
            vst1_s8(target + 4 * i, vqmovn_s16(words));
        }
        output.scales[block] = scale;
        output.sums[block] = scale * (float)vaddvq_s32(sum);
        output.halfSums[block] = scale * (float)vaddvq_s32(half);
    }
}

#define NEON_NAME(name) name##_widening
#define NEON_TARGET
#define NEON_DOT_PRODUCTS 0
#include "NEONProducts.h"
#undef NEON_NAME
#undef NEON_TARGET
#undef NEON_DOT_PRODUCTS

#define NEON_NAME(name) name##_dot_products
#define NEON_TARGET __attribute__((target("dotprod")))
#define NEON_DOT_PRODUCTS 1
#include "NEONProducts.h"

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

const GuidedKernelTable guided_neon_kernels = {quantize, multiply_widening, attend};
const GuidedKernelTable guided_neon_dot_product_kernels = {quantize, multiply_dot_products, attend};
#endif
