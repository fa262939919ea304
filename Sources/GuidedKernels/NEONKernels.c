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
        float maximum = vmaxvq_f32(largest), scale = guided_rounded_to_half(maximum / 127);
        float inverse = maximum > 0 ? 127 / maximum : 0;
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
        output.roundedSums[block] = guided_rounded_to_half(maximum / 127 * (float)vaddvq_s32(sum));
        output.blockSums[block] = vaddvq_s32(sum);
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

const GuidedKernelTable guided_neon_kernels = {quantize, multiply_widening, guided_attend_generic};
const GuidedKernelTable guided_neon_dot_product_kernels = {quantize, multiply_dot_products, guided_attend_generic};
#endif
