// The NEON kernels (both: with the dot-product instructions and with widening multiplications)
// against the portable ones, for every weight type, on random matrices and vectors: quantized
// inputs the same bytes, products within the float rounding of the portable ones, and a row's
// product with a vector the same float, bit for bit, alone and in a batch. Built for arm64 and run
// by `check-arm64-kernels.sh` (under QEMU on other machines); the Swift tests check the same on
// an arm64 machine. Prints one line per type and variant, and exits 1 when a check fails.
#include "KernelSupport.h"
#include <stdio.h>
#include <stdlib.h>

static uint32_t state = 2024;
static uint32_t next_random(void) {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
}

/// A half-precision number in [0.5, 1.5) × `scale`, negated with `negative`.
static uint16_t random_half(float scale, int negative) {
    float value = (0.5f + (float)(next_random() % 1000) / 1000) * scale;
    return guided_float_to_half(negative ? -value : value);
}

typedef struct {
    int type;
    const char *name;
    size_t blockBytes;
    int elements;  // per block
    int halves[2];  // where the block's half-precision scales are (-1: none)
    float spread;  // the scale that keeps the weights near ±0.05
} WeightType;

static const WeightType types[] = {
    {GUIDED_TYPE_Q4_0, "Q4_0", 18, 32, {0, -1}, 0.011f},
    {GUIDED_TYPE_Q4_1, "Q4_1", 20, 32, {0, 2}, 0.011f},
    {GUIDED_TYPE_Q5_0, "Q5_0", 22, 32, {0, -1}, 0.0054f},
    {GUIDED_TYPE_Q5_1, "Q5_1", 24, 32, {0, 2}, 0.0054f},
    {GUIDED_TYPE_Q8_0, "Q8_0", 34, 32, {0, -1}, 0.00068f},
    {GUIDED_TYPE_IQ4_NL, "IQ4_NL", 18, 32, {0, -1}, 0.0007f},
    {GUIDED_TYPE_Q2_K, "Q2_K", 84, 256, {80, 82}, 0.006f},
    {GUIDED_TYPE_Q3_K, "Q3_K", 110, 256, {108, -1}, 0.0012f},
    {GUIDED_TYPE_Q4_K, "Q4_K", 144, 256, {0, 2}, 0.00034f},
    {GUIDED_TYPE_Q5_K, "Q5_K", 176, 256, {0, 2}, 0.00017f},
    {GUIDED_TYPE_Q6_K, "Q6_K", 210, 256, {208, -1}, 0.000037f},
};

/// A random matrix of `rows` rows of `blocks32` blocks of 32 weights.
static uint8_t *random_matrix(const WeightType *type, size_t rows, size_t blocks32, size_t *rowBytes) {
    size_t blocks = blocks32 * 32 / (size_t)type->elements;
    *rowBytes = blocks * type->blockBytes;
    uint8_t *matrix = malloc(rows * *rowBytes);
    for (size_t i = 0; i < rows * *rowBytes; i++) matrix[i] = (uint8_t)next_random();
    for (size_t block = 0; block < rows * blocks; block++) {
        uint8_t *bytes = matrix + block * type->blockBytes;
        for (int h = 0; h < 2; h++) {
            if (type->halves[h] < 0) continue;
            uint16_t half = random_half(type->spread, 0);
            memcpy(bytes + type->halves[h], &half, 2);
        }
    }
    return matrix;
}

/// The products of a matrix with `vectorCount` vectors (input floats `input`), as `kernels`
/// compute them, quantized as the weight type asks.
static void products(const GuidedKernelTable *kernels, const WeightType *type, const uint8_t *matrix, size_t rowBytes, size_t rows,
    size_t blocks32, const float *input, size_t vectorCount, float *outputs) {
    size_t count = vectorCount * blocks32 * 32, blockCount = count / 32;
    GuidedQuantizedVectors q = {
        malloc(count), malloc(4 * blockCount), malloc(4 * blockCount), malloc(4 * blockCount), malloc(4 * blockCount), malloc(4 * blockCount)};
    if (type->elements == 256) {
        guided_quantize_blocks256(input, count, q);
    } else {
        kernels->quantize(input, count, q);
    }
    kernels->multiply(type->type, matrix, rowBytes, blocks32, 0, rows, q, vectorCount, outputs, rows);
    free(q.values);
    free(q.scales);
    free(q.sums);
    free(q.halfSums);
    free(q.roundedSums);
    free(q.blockSums);
}

/// Whether `kernels` quantize as the portable kernels do, to the byte.
static int quantizes_as_portable(const GuidedKernelTable *kernels) {
    enum { count = 32 * 40 };
    float input[count];
    for (int i = 0; i < count; i++) input[i] = ((int)(next_random() % 20001) - 10000) / 3000.0f;
    // Some blocks of zeros and of ties.
    for (int i = 0; i < 32; i++) input[i] = 0;
    for (int i = 32; i < 64; i++) input[i] = (float)(i - 48) * 0.5f;
    int8_t values[2][count];
    float numbers[2][4][count / 32];
    int32_t sums[2][count / 32];
    for (int v = 0; v < 2; v++) {
        GuidedQuantizedVectors q = {values[v], numbers[v][0], numbers[v][1], numbers[v][2], numbers[v][3], sums[v]};
        (v ? &guided_portable_kernels : kernels)->quantize(input, count, q);
    }
    return memcmp(values[0], values[1], sizeof values[0]) == 0 && memcmp(numbers[0], numbers[1], sizeof numbers[0]) == 0 &&
        memcmp(sums[0], sums[1], sizeof sums[0]) == 0;
}

static int check(const char *variant, const GuidedKernelTable *kernels) {
    int failures = 0;
    if (!quantizes_as_portable(kernels)) {
        printf("%s: quantized inputs differ from the portable ones\n", variant);
        failures++;
    }
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        const WeightType *type = types + t;
        size_t rows = 67;
        size_t shapes[2] = {type->elements == 256 ? 8 : 21, 64};
        for (int s = 0; s < 2; s++) {
            size_t blocks32 = shapes[s], rowBytes;
            uint8_t *matrix = random_matrix(type, rows, blocks32, &rowBytes);
            size_t vectorCount = 9, length = blocks32 * 32;
            float *input = malloc(sizeof(float) * vectorCount * length);
            for (size_t i = 0; i < vectorCount * length; i++) input[i] = ((int)(next_random() % 4001) - 2000) / 1000.0f;
            float *ours = malloc(sizeof(float) * vectorCount * rows), *theirs = malloc(sizeof(float) * vectorCount * rows);
            float *single = malloc(sizeof(float) * rows);
            products(kernels, type, matrix, rowBytes, rows, blocks32, input, vectorCount, ours);
            products(&guided_portable_kernels, type, matrix, rowBytes, rows, blocks32, input, vectorCount, theirs);
            double largest = 0, mean = 0;
            for (size_t i = 0; i < vectorCount * rows; i++) mean += fabs(theirs[i]) / (double)(vectorCount * rows);
            int differing = 0, apart = 0;
            for (size_t i = 0; i < vectorCount * rows; i++) {
                double difference = fabs((double)ours[i] - theirs[i]);
                largest = difference > largest ? difference : largest;
                if (difference > 1e-4 * (fabs(theirs[i]) > mean ? fabs(theirs[i]) : mean)) apart++;
            }
            for (size_t v = 0; v < vectorCount; v++) {
                products(kernels, type, matrix, rowBytes, rows, blocks32, input + v * length, 1, single);
                for (size_t r = 0; r < rows; r++) differing += memcmp(single + r, ours + v * rows + r, 4) != 0;
            }
            printf("%s, %s, %zu blocks: largest difference from portable %.3g (mean magnitude %.3g), %d outside tolerance, "
                   "%d batch products differing from one vector's\n",
                variant, type->name, blocks32, largest, mean, apart, differing);
            failures += apart + differing;
            free(matrix);
            free(input);
            free(ours);
            free(theirs);
            free(single);
        }
    }
    return failures;
}

int main(void) {
    int failures = check("neon, dot products", &guided_neon_dot_product_kernels) + check("neon, widening", &guided_neon_kernels);
    printf("%s\n", failures ? "FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
