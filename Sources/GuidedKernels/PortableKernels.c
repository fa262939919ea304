// The kernels in plain C, for any CPU: the compiler vectorizes the loops for the baseline of the
// target (SSE2 on x86-64, NEON on arm64). The reference the other variants are tested against.
#include "KernelSupport.h"

static void quantize(const float *input, size_t count, GuidedQuantizedVectors output) {
    for (size_t block = 0; block < count / 32; block++) {
        const float *x = input + block * 32;
        float largest = 0;
        for (int i = 0; i < 32; i++) {
            float magnitude = fabsf(x[i]);
            largest = magnitude > largest ? magnitude : largest;
        }
        float scale = largest / 127;
        float inverse = scale > 0 ? 1 / scale : 0;
        int8_t *target = output.values + block * 32;
        int32_t sum = 0;
        for (int i = 0; i < 32; i++) {
            target[i] = (int8_t)guided_round(x[i] * inverse);
            sum += target[i];
        }
        output.scales[block] = scale;
        output.sums[block] = scale * (float)sum;
    }
}

/// The integer product of one block of weights with 32 quantized elements.
static inline int32_t block_product(int type, const uint8_t *quants, const int8_t *x) {
    int32_t product = 0;
    if (type == GUIDED_WEIGHTS_Q8_0) {
        const int8_t *weights = (const int8_t *)quants;
        for (int i = 0; i < 32; i++) product += (int16_t)weights[i] * (int16_t)x[i];
    } else {
        // Products of 16-bit numbers added in pairs, the form of SSE2's `pmaddwd`.
        for (int i = 0; i < 16; i++) product += (int16_t)(quants[i] & 0x0F) * (int16_t)x[i];
        for (int i = 0; i < 16; i++) product += (int16_t)(quants[i] >> 4) * (int16_t)x[i + 16];
    }
    return product;
}

__attribute__((always_inline)) static inline float row_product(int type, const uint8_t *row, size_t blocks, const int8_t *values, const float *scales, const float *sums) {
    size_t blockBytes = guided_block_bytes(type), quantOffset = guided_quant_offset(type);
    float total = 0;
    for (size_t block = 0; block < blocks; block++) {
        const uint8_t *pointer = row + block * blockBytes;
        float scale = guided_half_to_float(guided_load_u16(pointer));
        total += scale * scales[block] * (float)block_product(type, pointer + quantOffset, values + block * 32);
        if (type == GUIDED_WEIGHTS_Q4_1) {
            total += guided_half_to_float(guided_load_u16(pointer + 2)) * sums[block];
        } else if (type == GUIDED_WEIGHTS_Q4_0) {
            total -= 8 * scale * sums[block];
        }
    }
    return total;
}

__attribute__((always_inline)) static inline void multiply_rows(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    for (size_t row = rowStart; row < rowEnd; row++) {
        const uint8_t *pointer = (const uint8_t *)matrix + row * rowBytes;
        for (size_t vector = 0; vector < vectorCount; vector++) {
            outputs[vector * outputStride + row] = row_product(
                type, pointer, blocks, inputs.values + vector * blocks * 32, inputs.scales + vector * blocks,
                inputs.sums + vector * blocks);
        }
    }
}

static void multiply(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    GUIDED_MULTIPLY_BY_TYPE(multiply_rows, type, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride);
}

/// The dot product of `count` floats in eight running sums, which the compiler keeps in vector
/// registers (one sum would be a chain of dependent additions that it may not reorder).
static inline float dot(const float *left, const float *right, size_t count) {
    float sums[8] = {0};
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        for (int lane = 0; lane < 8; lane++) sums[lane] += left[i + lane] * right[i + lane];
    }
    float total = ((sums[0] + sums[4]) + (sums[1] + sums[5])) + ((sums[2] + sums[6]) + (sums[3] + sums[7]));
    for (; i < count; i++) total += left[i] * right[i];
    return total;
}

static void attend(
    const float *query, const float *keys, const float *values, size_t stride, size_t count, size_t dimension,
    float scale, float *scores, float *output) {
    for (size_t p = 0; p < count; p++) {
        scores[p] = dot(query, keys + p * stride, dimension) * scale;
    }
    float inverse = 1 / guided_softmax(scores, count);
    for (size_t i = 0; i < dimension; i++) output[i] = 0;
    for (size_t p = 0; p < count; p++) {
        const float *value = values + p * stride;
        float weight = scores[p] * inverse;
        for (size_t i = 0; i < dimension; i++) output[i] += weight * value[i];
    }
}

const GuidedKernelTable guided_portable_kernels = {quantize, multiply, attend};
