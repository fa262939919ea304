// The NEON matrix products, included by NEONKernels.c once per instruction set: `NEON_NAME(x)`
// names the functions, `NEON_TARGET` gives their target attribute, and `NEON_DOT_PRODUCTS` says
// whether they use the dot-product instructions (`sdot`) or widening multiplications.

/// The integer products of 32 weights (as two halves of 16 signed bytes) with 32 input bytes,
/// added to `sums`.
INLINE NEON_TARGET int32x4_t NEON_NAME(add_products)(int32x4_t sums, int8x16_t low, int8x16_t high, const int8_t *x) {
    int8x16_t x0 = vld1q_s8(x), x1 = vld1q_s8(x + 16);
#if NEON_DOT_PRODUCTS
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

INLINE NEON_TARGET float NEON_NAME(row_product)(int type, const uint8_t *row, size_t blocks, GuidedQuantizedVectors x) {
    size_t blockBytes = guided_block_bytes((GuidedTensorType)type);
    float32x4_t total = vdupq_n_f32(0);
    float offsets = 0;
    for (size_t b = 0; b < blocks; b++) {
        const uint8_t *pointer = row + b * blockBytes;
        float scale = half_to_float(pointer);
        int8x16_t low, high;
        if (type == GUIDED_TYPE_Q8_0) {
            low = vld1q_s8((const int8_t *)(pointer + 2));
            high = vld1q_s8((const int8_t *)(pointer + 18));
        } else {
            uint8x16_t packed = vld1q_u8(pointer + guided_quant_offset(type));
            low = vreinterpretq_s8_u8(vandq_u8(packed, vdupq_n_u8(0x0F)));
            high = vreinterpretq_s8_u8(vshrq_n_u8(packed, 4));
            offsets += (type == GUIDED_TYPE_Q4_1 ? half_to_float(pointer + 2) : -8 * scale) * x.sums[b];
        }
        int32x4_t sums = NEON_NAME(add_products)(vdupq_n_s32(0), low, high, x.values + b * 32);
        total = vfmaq_n_f32(total, vcvtq_f32_s32(sums), scale * x.scales[b]);
    }
    return vaddvq_f32(total) + offsets;
}

INLINE NEON_TARGET void NEON_NAME(multiply_rows)(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    for (size_t row = rowStart; row < rowEnd; row++) {
        const uint8_t *pointer = (const uint8_t *)matrix + row * rowBytes;
        for (size_t v = 0; v < vectorCount; v++) {
            GuidedQuantizedVectors x = {
                inputs.values + v * blocks * 32, inputs.scales + v * blocks, inputs.sums + v * blocks, inputs.halfSums + v * blocks,
                inputs.roundedSums + v * blocks, inputs.blockSums + v * blocks};
            outputs[v * outputStride + row] = NEON_NAME(row_product)(type, pointer, blocks, x);
        }
    }
}

static NEON_TARGET void NEON_NAME(multiply)(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    // The other types through the portable loops, which the compiler vectorizes for NEON.
    inputs = guided_offset_sums(type, inputs);
    switch ((GuidedTensorType)type) {
    case GUIDED_TYPE_Q4_0: NEON_NAME(multiply_rows)(GUIDED_TYPE_Q4_0, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride); break;
    case GUIDED_TYPE_Q4_1: NEON_NAME(multiply_rows)(GUIDED_TYPE_Q4_1, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride); break;
    case GUIDED_TYPE_Q8_0: NEON_NAME(multiply_rows)(GUIDED_TYPE_Q8_0, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride); break;
    case GUIDED_TYPE_Q5_0:
    case GUIDED_TYPE_Q5_1:
    case GUIDED_TYPE_Q2_K:
    case GUIDED_TYPE_Q3_K:
    case GUIDED_TYPE_Q4_K:
    case GUIDED_TYPE_Q5_K:
    case GUIDED_TYPE_Q6_K:
    case GUIDED_TYPE_IQ4_NL:
    GUIDED_TYPES_WITHOUT_INTEGER_KERNEL:
        guided_portable_kernels.multiply(type, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride);
        break;
    }
}

