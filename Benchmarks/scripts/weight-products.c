// The weight products of one kernel variant, type by type, on matrices of random codes under
// valid scales: decode (one vector, the rows streamed from memory: 512 MB of matrices, each read
// once per pass, in GB/s of weights) and batches (64 vectors, one matrix that the caches hold in
// part, in billions of multiply-adds per second), the best of ROUNDS passes each. Each product of
// a batch is checked against the same vector's product alone: they must be the same float.
//
// Build (from the repository's root, with clang, which the kernels' header needs):
//   clang -O2 -ISources/GuidedKernels/include -ISources/GuidedKernels Benchmarks/scripts/weight-products.c Sources/GuidedKernels/*.c -lm -o weight-products
// usage: weight-products [VARIANT (avx2, avx512, neon, portable; the best the CPU runs)] [ROUNDS (5)]
#include "GuidedKernels.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/// A random byte from a fixed sequence (xorshift), the same on every run.
static uint8_t next_byte(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (uint8_t)(*state >> 24);
}

/// Random codes, then each block's half-precision scales set to small finite values (the offset of
/// the scales in a block of each type, and of the second one where there is one).
static void fill(uint8_t *matrix, size_t bytes, GuidedTensorType type, const GuidedTypeTraits *traits) {
    uint64_t state = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < bytes; i++) matrix[i] = next_byte(&state);
    int scale = type == GUIDED_TYPE_Q6_K ? 208 : type == GUIDED_TYPE_Q3_K ? 108 : type == GUIDED_TYPE_Q2_K ? 80 : 0;
    int second = type == GUIDED_TYPE_Q4_1 || type == GUIDED_TYPE_Q5_1 || type == GUIDED_TYPE_Q4_K || type == GUIDED_TYPE_Q5_K ? 2 : -1;
    if (type == GUIDED_TYPE_Q2_K) second = 82;
    for (size_t block = 0; block < bytes / traits->blockBytes; block++) {
        uint8_t *start = matrix + block * traits->blockBytes;
        // 2^-10 and 2^-12 as half-precision numbers, with a little noise in the mantissa.
        uint16_t d = (uint16_t)(0x1400 | (next_byte(&state) & 0x3F)), m = (uint16_t)(0x0C00 | (next_byte(&state) & 0x3F));
        memcpy(start + scale, &d, 2);
        if (second >= 0) memcpy(start + second, &m, 2);
    }
}

typedef struct {
    int8_t *values;
    float *scales, *sums, *halfSums, *roundedSums;
    int32_t *blockSums;
} Vectors;

static GuidedQuantizedVectors quantized(const GuidedKernelTable *kernels, GuidedInputFormat format, const float *input, size_t length, size_t count, Vectors *storage) {
    size_t blocks = length / 32 * count;
    storage->values = malloc(length * count);
    storage->scales = malloc(blocks * sizeof(float));
    storage->sums = malloc(blocks * sizeof(float));
    storage->halfSums = malloc(blocks * sizeof(float));
    storage->roundedSums = malloc(blocks * sizeof(float));
    storage->blockSums = malloc(blocks * sizeof(int32_t));
    GuidedQuantizedVectors vectors = {storage->values, storage->scales, storage->sums, storage->halfSums, storage->roundedSums, storage->blockSums};
    if (format == GUIDED_INPUT_BLOCKS256) {
        guided_quantize_blocks256(input, length * count, vectors);
    } else {
        kernels->quantize(input, length * count, vectors);
    }
    return vectors;
}

static GuidedQuantizedVectors vector_at(GuidedQuantizedVectors x, size_t index, size_t blocks) {
    GuidedQuantizedVectors result = {
        x.values + index * blocks * 32, x.scales + index * blocks, x.sums + index * blocks, x.halfSums + index * blocks,
        x.roundedSums + index * blocks, x.blockSums + index * blocks};
    return result;
}

static void release(Vectors *storage) {
    free(storage->values);
    free(storage->scales);
    free(storage->sums);
    free(storage->halfSums);
    free(storage->roundedSums);
    free(storage->blockSums);
}

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int number;
    } variants[] = {{"portable", GUIDED_KERNELS_PORTABLE}, {"avx2", GUIDED_KERNELS_AVX2}, {"neon", GUIDED_KERNELS_NEON}, {"avx512", GUIDED_KERNELS_AVX512}};
    int variant = -1;
    for (int i = 3; i >= 0 && argc < 2; i--) {
        if (variant < 0 && guided_kernels_supported(variants[i].number)) variant = i;
    }
    for (int i = 0; i < 4 && argc >= 2; i++) {
        if (strcmp(argv[1], variants[i].name) == 0) variant = i;
    }
    if (variant < 0 || !guided_kernels_supported(variants[variant].number)) {
        fprintf(stderr, "usage: weight-products [portable|avx2|neon|avx512] [ROUNDS]: a variant this CPU runs\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    const GuidedKernelTable *kernels = guided_kernel_table(variants[variant].number);
    // Shapes of a 1.5B model's matrices: 8,960 rows of 1,536 (a feed-forward's first ones) and
    // 1,536 rows of 8,960 (its last).
    static const GuidedTensorType types[] = {GUIDED_TYPE_Q4_0, GUIDED_TYPE_Q4_1, GUIDED_TYPE_Q5_0, GUIDED_TYPE_Q8_0, GUIDED_TYPE_Q4_K, GUIDED_TYPE_Q5_K, GUIDED_TYPE_Q6_K};
    static const size_t shapes[][2] = {{8960, 1536}, {1536, 8960}};
    printf("kernels: %s\n\n", variants[variant].name);
    printf("| type | rows x columns | decode GB/s | decode ms per matrix | batch of 64: billion multiply-adds/s | batch products unlike one vector's |\n");
    printf("| --- | --- | --- | --- | --- | --- |\n");
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        GuidedTypeTraits traits;
        guided_type_traits(types[t], &traits);
        for (size_t s = 0; s < 2; s++) {
            size_t rows = shapes[s][0], columns = shapes[s][1], blocks = columns / 32;
            size_t rowBytes = columns / traits.blockSize * traits.blockBytes, matrixBytes = rows * rowBytes;
            size_t matrices = ((size_t)512 << 20) / matrixBytes;
            uint8_t *weights = malloc(matrices * matrixBytes);
            fill(weights, matrices * matrixBytes, types[t], &traits);
            size_t count = 64;
            float *input = malloc(columns * count * sizeof(float));
            uint64_t state = 42;
            for (size_t i = 0; i < columns * count; i++) input[i] = (float)((int)next_byte(&state) - 128) / 64.0f;
            Vectors storage;
            GuidedQuantizedVectors x = quantized(kernels, traits.input, input, columns, count, &storage);
            float *outputs = malloc(rows * count * sizeof(float)), *alone = malloc(rows * sizeof(float));
            double decode = 1e30, batch = 1e30;
            for (int round = 0; round < rounds; round++) {
                double start = seconds();
                for (size_t m = 0; m < matrices; m++) kernels->multiply(types[t], weights + m * matrixBytes, rowBytes, blocks, 0, rows, x, 1, alone, rows);
                double elapsed = seconds() - start;
                decode = elapsed < decode ? elapsed : decode;
                start = seconds();
                kernels->multiply(types[t], weights, rowBytes, blocks, 0, rows, x, count, outputs, rows);
                elapsed = seconds() - start;
                batch = elapsed < batch ? elapsed : batch;
            }
            size_t unlike = 0;
            for (size_t v = 0; v < count; v++) {
                kernels->multiply(types[t], weights, rowBytes, blocks, 0, rows, vector_at(x, v, blocks), 1, alone, rows);
                for (size_t row = 0; row < rows; row++) unlike += memcmp(&alone[row], &outputs[v * rows + row], sizeof(float)) != 0;
            }
            printf("| %s | %zu x %zu | %.1f | %.3f | %.1f | %zu |\n", traits.name, rows, columns, (double)(matrices * matrixBytes) / decode / 1e9,
                   decode / (double)matrices * 1e3, (double)(rows * columns * count) / batch / 1e9, unlike);
            fflush(stdout);
            release(&storage);
            free(input);
            free(outputs);
            free(alone);
            free(weights);
        }
    }
    return 0;
}
