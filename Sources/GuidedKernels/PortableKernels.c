// The kernels in plain C, for any CPU: the compiler vectorizes the loops for the baseline of the
// target (SSE2 on x86-64, NEON on arm64). The reference the other variants are tested against.
#include "KernelSupport.h"

/// The largest magnitude among `count` floats.
static float largest_magnitude(const float *x, int count) {
    float largest = 0;
    for (int i = 0; i < count; i++) {
        float magnitude = fabsf(x[i]);
        largest = magnitude > largest ? magnitude : largest;
    }
    return largest;
}

/// Writes block `block` (32 floats from `x`) as `x × inverse` rounded, with `scale` and its sums
/// (the rounded one from `unrounded`, the scale before its rounding).
static void quantize_block(const float *x, float scale, float unrounded, float inverse, GuidedQuantizedVectors output, size_t block) {
    int8_t *target = output.values + block * 32;
    int32_t sum = 0, half = 0;
    for (int i = 0; i < 32; i++) {
        target[i] = (int8_t)guided_round(x[i] * inverse);
        sum += target[i];
        if (i == 15) half = sum;
    }
    output.scales[block] = scale;
    output.sums[block] = scale * (float)sum;
    output.halfSums[block] = scale * (float)half;
    output.roundedSums[block] = guided_rounded_to_half(unrounded * (float)sum);
    output.blockSums[block] = sum;
}

static void quantize(const float *input, size_t count, GuidedQuantizedVectors output) {
    for (size_t block = 0; block < count / 32; block++) {
        // As llama.cpp's inputs of 32: the elements by 127 / largest, the scale in 16 bits.
        float largest = largest_magnitude(input + block * 32, 32);
        quantize_block(input + block * 32, guided_rounded_to_half(largest / 127), largest / 127, largest > 0 ? 127 / largest : 0, output, block);
    }
}

void guided_quantize_blocks256(const float *input, size_t count, GuidedQuantizedVectors output) {
    for (size_t group = 0; group < count / 256; group++) {
        float largest = largest_magnitude(input + group * 256, 256);
        // The inverse first, then the scale from it, as llama.cpp computes them.
        float inverse = largest > 0 ? 127 / largest : 0;
        float scale = largest > 0 ? 1 / inverse : 0;
        for (size_t block = group * 8; block < group * 8 + 8; block++) quantize_block(input + block * 32, scale, scale, inverse, output, block);
    }
}

/// Sub-block `b` (32 weights) of a row: its integer codes in element order, the scale of each
/// half of 16 (equal but for Q3_K's, Q6_K's and Q2_K's), what the block's input sum is multiplied
/// by (a minimum, or the offset of unsigned codes), and what the sum of its first half is (Q2_K's
/// first minimum less its second).
typedef struct {
    int16_t codes[32];
    float scales[2];
    float offset;
    float halfOffset;
} SubBlock;

__attribute__((always_inline)) static inline void load_sub_block(int type, const uint8_t *row, size_t b, SubBlock *s) {
    const uint8_t *block = guided_block_of(type, row, b);
    float scale = 0, offset = 0;
    s->halfOffset = 0;
    switch ((GuidedTensorType)type) {
    case GUIDED_TYPE_Q8_0:
        for (int i = 0; i < 32; i++) s->codes[i] = ((const int8_t *)block)[2 + i];
        scale = guided_half_to_float(guided_load_u16(block));
        break;
    case GUIDED_TYPE_Q4_0:
    case GUIDED_TYPE_Q4_1:
    case GUIDED_TYPE_IQ4_NL: {
        const uint8_t *quants = block + guided_quant_offset(type);
        for (int i = 0; i < 16; i++) {
            s->codes[i] = quants[i] & 0x0F;
            s->codes[i + 16] = quants[i] >> 4;
        }
        scale = guided_half_to_float(guided_load_u16(block));
        if (type == GUIDED_TYPE_IQ4_NL) {
            for (int i = 0; i < 32; i++) s->codes[i] = guided_nonlinear_values[s->codes[i]];
        }
        offset = type == GUIDED_TYPE_Q4_1 ? guided_half_to_float(guided_load_u16(block + 2)) : type == GUIDED_TYPE_Q4_0 ? -8 * scale : 0;
        break;
    }
    case GUIDED_TYPE_Q5_0:
    case GUIDED_TYPE_Q5_1: {
        size_t high = type == GUIDED_TYPE_Q5_1 ? 4 : 2;
        uint32_t bits;
        memcpy(&bits, block + high, 4);
        for (int i = 0; i < 16; i++) {
            s->codes[i] = (block[high + 4 + i] & 0x0F) | ((bits >> i) & 1) << 4;
            s->codes[i + 16] = (block[high + 4 + i] >> 4) | ((bits >> (i + 16)) & 1) << 4;
        }
        scale = guided_half_to_float(guided_load_u16(block));
        offset = type == GUIDED_TYPE_Q5_1 ? guided_half_to_float(guided_load_u16(block + 2)) : -16 * scale;
        break;
    }
    case GUIDED_TYPE_Q4_K:
    case GUIDED_TYPE_Q5_K: {
        int j = (int)(b % 8), subScale, subMinimum;
        guided_scale_and_minimum(block + 4, j, &subScale, &subMinimum);
        const uint8_t *quants = block + (type == GUIDED_TYPE_Q5_K ? 48 : 16) + (j / 2) * 32;
        for (int i = 0; i < 32; i++) {
            s->codes[i] = (quants[i] >> (4 * (j & 1))) & 0x0F;
            if (type == GUIDED_TYPE_Q5_K) s->codes[i] |= ((block[16 + i] >> j) & 1) << 4;
        }
        scale = guided_half_to_float(guided_load_u16(block)) * (float)subScale;
        offset = -guided_half_to_float(guided_load_u16(block + 2)) * (float)subMinimum;
        break;
    }
    case GUIDED_TYPE_Q3_K: {
        // Two bits from the codes, a third from the high-bit mask (clear: minus 4).
        int j = (int)(b % 8);
        const uint8_t *low = block + 32 + (j / 4) * 32;
        for (int i = 0; i < 32; i++) {
            s->codes[i] = (int16_t)((low[i] >> (2 * (j % 4))) & 3) - (((block[i] >> j) & 1) ? 0 : 4);
        }
        float d = guided_half_to_float(guided_load_u16(block + 108));
        s->scales[0] = d * (float)guided_q3k_scale(block + 96, 2 * j);
        s->scales[1] = d * (float)guided_q3k_scale(block + 96, 2 * j + 1);
        s->offset = 0;
        return;
    }
    case GUIDED_TYPE_Q2_K: {
        int j = (int)(b % 8);
        const uint8_t *quants = block + 16 + (j / 4) * 32;
        for (int i = 0; i < 32; i++) s->codes[i] = (quants[i] >> (2 * (j % 4))) & 3;
        float d = guided_half_to_float(guided_load_u16(block + 80)), minimum = guided_half_to_float(guided_load_u16(block + 82));
        s->scales[0] = d * (float)(block[2 * j] & 0x0F);
        s->scales[1] = d * (float)(block[2 * j + 1] & 0x0F);
        s->offset = -minimum * (float)(block[2 * j + 1] >> 4);
        s->halfOffset = -minimum * ((float)(block[2 * j] >> 4) - (float)(block[2 * j + 1] >> 4));
        return;
    }
    case GUIDED_TYPE_Q6_K: {
        int j = (int)(b % 8), half = j / 4, group = j % 4;
        const uint8_t *low = block + half * 64 + (group % 2) * 32, *high = block + 128 + half * 32;
        for (int i = 0; i < 32; i++) {
            s->codes[i] = (int16_t)(((low[i] >> (4 * (group / 2))) & 0x0F) | ((high[i] >> (2 * group)) & 3) << 4) - 32;
        }
        float d = guided_half_to_float(guided_load_u16(block + 208));
        s->scales[0] = d * (float)((const int8_t *)block)[192 + 2 * j];
        s->scales[1] = d * (float)((const int8_t *)block)[192 + 2 * j + 1];
        s->offset = 0;
        return;
    }
    GUIDED_TYPES_WITHOUT_INTEGER_KERNEL:
        // Never multiplied here: their products run in floats.
        memset(s->codes, 0, sizeof(s->codes));
        break;
    }
    s->scales[0] = scale;
    s->scales[1] = scale;
    s->offset = offset;
}

__attribute__((always_inline)) static inline float row_product(
    int type, const uint8_t *row, size_t blocks, const int8_t *values, const float *scales, const float *sums, const float *halfSums) {
    float total = 0;
    SubBlock s;
    for (size_t b = 0; b < blocks; b++) {
        load_sub_block(type, row, b, &s);
        const int8_t *x = values + b * 32;
        // Products of 16-bit numbers added in pairs, the form of SSE2's `pmaddwd`.
        int32_t low = 0, high = 0;
        for (int i = 0; i < 16; i++) low += s.codes[i] * (int16_t)x[i];
        for (int i = 16; i < 32; i++) high += s.codes[i] * (int16_t)x[i];
        total += scales[b] * (s.scales[0] * (float)low + s.scales[1] * (float)high) + s.offset * sums[b];
        if (type == GUIDED_TYPE_Q2_K) total += s.halfOffset * halfSums[b];
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
                inputs.sums + vector * blocks, inputs.halfSums + vector * blocks);
        }
    }
}

static void multiply(
    int type, const void *matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
    GuidedQuantizedVectors inputs, size_t vectorCount, float *outputs, size_t outputStride) {
    inputs = guided_offset_sums(type, inputs);
    GUIDED_MULTIPLY_BY_TYPE(multiply_rows, type, matrix, rowBytes, blocks, rowStart, rowEnd, inputs, vectorCount, outputs, outputStride);
}

void guided_halves_from_floats(const float *input, size_t count, uint16_t *output) {
    for (size_t i = 0; i < count; i++) output[i] = guided_float_to_half(input[i]);
}

void guided_floats_from_halves(const uint16_t *input, size_t count, float *output) {
    for (size_t i = 0; i < count; i++) output[i] = guided_half_to_float(input[i]);
}

void guided_gelu_gate(const float *table, float *gate, const float *up, size_t count) {
    for (size_t i = 0; i < count; i++) {
        float x = gate[i];
        float activated = x <= -10 ? 0 : x >= 10 ? x : table[guided_float_to_half(x)];
        gate[i] = activated * up[i];
    }
}

const GuidedKernelTable guided_portable_kernels = {quantize, multiply, guided_attend_generic};
