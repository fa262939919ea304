#ifndef GUIDED_KERNELS_H
#define GUIDED_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Vectors quantized to 8 bits per element in blocks of 32: `values` holds the elements, and each
/// block has a scale (`value × scale` is the element) and the sum of its elements (`scale × Σ
/// value`, for the offset terms of Q4 weights: with the sum of the quantized elements, not of the
/// original ones, a product is exactly that of the dequantized weights with the quantized vector,
/// whose error is far smaller), and the sum of its first 16 elements (`scale × Σ value`, for Q2_K,
/// whose minimums are per 16 weights). Blocks of 32 also keep their sum as llama.cpp's Q8_1
/// blocks do, for the minimums of Q4_1 and Q5_1: the scale before its rounding to 16 bits times
/// `Σ value`, rounded to 16 bits (`roundedSums`), and the exact integer `Σ value` of each block
/// (`blockSums`), which the K-quants' minimums multiply in integers, as llama.cpp's Q8_K block
/// sums. A batch of vectors lies back to back.
typedef struct {
    int8_t *_Nonnull values;
    float *_Nonnull scales;
    float *_Nonnull sums;
    float *_Nonnull halfSums;
    float *_Nonnull roundedSums;
    int32_t *_Nonnull blockSums;
} GuidedQuantizedVectors;

/// The GGUF tensor types this library reads, by their GGML type numbers: described once, in
/// ``guided_type_traits``, which Swift reads. The K-quants hold 256 weights per block, in
/// sub-blocks of 32 (with a scale, and a minimum for Q4_K and Q5_K) or of 16 (Q3_K's and Q6_K's
/// scales, Q2_K's scales and minimums); the other quantized types 32. Every `switch` on a type
/// in the kernels lists every case (a missing one is a compile error), so that a type added here
/// is handled, or refused, everywhere.
typedef enum {
    GUIDED_TYPE_F32 = 0,
    GUIDED_TYPE_F16 = 1,
    GUIDED_TYPE_Q4_0 = 2,
    GUIDED_TYPE_Q4_1 = 3,
    GUIDED_TYPE_Q5_0 = 6,
    GUIDED_TYPE_Q5_1 = 7,
    GUIDED_TYPE_Q8_0 = 8,
    GUIDED_TYPE_Q8_1 = 9,
    GUIDED_TYPE_Q2_K = 10,
    GUIDED_TYPE_Q3_K = 11,
    GUIDED_TYPE_Q4_K = 12,
    GUIDED_TYPE_Q5_K = 13,
    GUIDED_TYPE_Q6_K = 14,
    GUIDED_TYPE_Q8_K = 15,
    GUIDED_TYPE_IQ4_NL = 20,
    GUIDED_TYPE_BF16 = 30,
} GuidedTensorType;

/// The form in which a matrix product takes its input vector, chosen by the weights' type as
/// llama.cpp chooses it: 8-bit values in blocks of 32 with a scale each, 8-bit values in blocks
/// of 256 sharing a scale (the K-quants), floats rounded to 16 bits (F16, BF16), or floats.
typedef enum __attribute__((enum_extensibility(closed))) {
    GUIDED_INPUT_BLOCKS32 = 0,
    GUIDED_INPUT_BLOCKS256 = 1,
    GUIDED_INPUT_HALF = 2,
    GUIDED_INPUT_BFLOAT = 3,
    GUIDED_INPUT_FLOAT = 4,
} GuidedInputFormat;

/// What a tensor type is: its name as llama.cpp writes it, its block layout, whether weights of
/// it can be computed with (Q8_1 and Q8_K are llama.cpp's activation formats only), and the
/// form its products take their inputs in (blocks of 8-bit values: through the integer kernels).
typedef struct {
    const char *_Nullable name;
    uint32_t blockSize;
    uint32_t blockBytes;
    int computable;
    GuidedInputFormat input;
} GuidedTypeTraits;

/// Writes the traits of the tensor type numbered `type` to `traits` and returns 1; returns 0 for
/// a number this library does not know.
int guided_type_traits(uint32_t type, GuidedTypeTraits *_Nonnull traits);

/// One variant of the kernels, all written for one CPU feature set.
typedef struct {
    /// Quantizes `count` floats (a multiple of 32) into `output`, from its start, as llama.cpp
    /// quantizes the inputs of weights in blocks of 32: each element times `127 / largest
    /// magnitude`, rounded, and the block's scale (`largest / 127`) rounded to 16 bits.
    void (*_Nonnull quantize)(const float *_Nonnull input, size_t count, GuidedQuantizedVectors output);
    /// `outputs[v × outputStride + row] = row · vector v` for the rows in `rowStart..<rowEnd` of a
    /// matrix of `type` (a ``GuidedTensorType`` whose input is in blocks) whose rows are `rowBytes` long and hold
    /// `blocks × 32` weights, and the `vectorCount` vectors of `inputs` (each `blocks × 32`
    /// elements, quantized in the type's input format: the K-quants' blocks of 256 share one
    /// scale, which the vector kernels take for the whole block). A product is the same float, bit for bit, whatever `vectorCount` is, as
    /// llama.cpp's are: a prompt read at once and read a token at a time give the same logits.
    void (*_Nonnull multiply)(
        int type, const void *_Nonnull matrix, size_t rowBytes, size_t blocks, size_t rowStart, size_t rowEnd,
        GuidedQuantizedVectors inputs, size_t vectorCount, float *_Nonnull outputs, size_t outputStride);
    /// Attention of one query over `count` cached positions, whose keys and values are
    /// `dimension` half-precision numbers each, `stride` apart: `scores[p] = scale × query · key
    /// p`, turned into softmax weights, and `output = Σ weight p × value p`, as llama.cpp's CPU
    /// flash attention computes it over its 16-bit cache. With `halfSums` (llama.cpp's path for a
    /// single query and for batches under 64), the query is rounded to 16 bits, and the weighted
    /// values are summed position by position into 16-bit numbers (softmax on the fly, the sums
    /// rescaled in 16 bits when a larger score comes); without it (batches of 64 and more), the
    /// query stays as it is and the sums are in floats. `scores` holds `count` floats.
    void (*_Nonnull attend)(
        const float *_Nonnull query, const uint16_t *_Nonnull keys, const uint16_t *_Nonnull values, size_t stride,
        size_t count, size_t dimension, float scale, int halfSums, float *_Nonnull scores, float *_Nonnull output);
} GuidedKernelTable;

/// The variants, as `guided_kernel_table` numbers them.
enum {
    GUIDED_KERNELS_PORTABLE = 0,
    GUIDED_KERNELS_AVX2 = 1,
    GUIDED_KERNELS_NEON = 2,
    GUIDED_KERNELS_AVX512 = 3,
};

/// Quantizes `count` floats (a multiple of 256) into `output` as llama.cpp quantizes the inputs of
/// its K-quant products: every 256 elements share one scale (`largest magnitude / 127`), written
/// to each of their 8 blocks of 32, with the blocks' sums as `quantize` writes them.
void guided_quantize_blocks256(const float *_Nonnull input, size_t count, GuidedQuantizedVectors output);

/// Writes `count` floats as half-precision numbers (nearest, ties to even), for the KV cache.
void guided_halves_from_floats(const float *_Nonnull input, size_t count, uint16_t *_Nonnull output);

/// Writes `count` half-precision numbers as floats.
void guided_floats_from_halves(const uint16_t *_Nonnull input, size_t count, float *_Nonnull output);

/// `gate[i] = GELU(gate[i]) × up[i]` as llama.cpp computes GELU: 0 from -10 down, the input from
/// 10 up, and between, `table`'s entry for the input rounded to 16 bits (indexed by its bits).
void guided_gelu_gate(const float *_Nonnull table, float *_Nonnull gate, const float *_Nonnull up, size_t count);

/// Whether this build has `variant` and this CPU (and its operating system) runs it: the
/// instructions are reported by `cpuid` and the registers they use are saved by the system
/// (x86-64), or are part of the architecture (NEON on arm64). The portable variant runs everywhere.
int guided_kernels_supported(int variant);

/// The kernels of `variant`, or the portable ones when this build has none for it (NEON on x86-64,
/// AVX2 on arm64). Check `guided_kernels_supported` first: running a variant the CPU lacks stops
/// the process with an illegal instruction.
const GuidedKernelTable *_Nonnull guided_kernel_table(int variant);

/// Gives the memory the C allocator holds free back to the system, where the allocator keeps it
/// (glibc's arenas, which many threads fill); nothing elsewhere.
void guided_release_free_memory(void);

/// Lets the C allocator keep at most `count` arenas (glibc makes up to 8 per core for threads that
/// allocate at once, and freed memory scattered over them cannot go back); nothing elsewhere.
void guided_limit_allocator_arenas(int count);

#ifdef __cplusplus
}
#endif

#endif
