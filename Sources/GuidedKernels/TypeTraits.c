#include "KernelSupport.h"

/// The name llama.cpp gives a tensor type, and whether weights of it can be computed with (Q8_1
/// and Q8_K are the forms llama.cpp gives activations only); 0 for a number that is no
/// `GuidedTensorType`.
static int describe(GuidedTensorType type, const char **name, int *computable) {
    *computable = 1;
    switch (type) {
    case GUIDED_TYPE_F32: *name = "F32"; return 1;
    case GUIDED_TYPE_F16: *name = "F16"; return 1;
    case GUIDED_TYPE_BF16: *name = "BF16"; return 1;
    case GUIDED_TYPE_Q4_0: *name = "Q4_0"; return 1;
    case GUIDED_TYPE_Q4_1: *name = "Q4_1"; return 1;
    case GUIDED_TYPE_Q5_0: *name = "Q5_0"; return 1;
    case GUIDED_TYPE_Q5_1: *name = "Q5_1"; return 1;
    case GUIDED_TYPE_Q8_0: *name = "Q8_0"; return 1;
    case GUIDED_TYPE_Q2_K: *name = "Q2_K"; return 1;
    case GUIDED_TYPE_Q3_K: *name = "Q3_K"; return 1;
    case GUIDED_TYPE_Q4_K: *name = "Q4_K"; return 1;
    case GUIDED_TYPE_Q5_K: *name = "Q5_K"; return 1;
    case GUIDED_TYPE_Q6_K: *name = "Q6_K"; return 1;
    case GUIDED_TYPE_IQ4_NL: *name = "IQ4_NL"; return 1;
    case GUIDED_TYPE_Q8_1: *name = "Q8_1"; *computable = 0; return 1;
    case GUIDED_TYPE_Q8_K: *name = "Q8_K"; *computable = 0; return 1;
    }
    return 0;
}

int guided_type_traits(uint32_t number, GuidedTypeTraits *traits) {
    const char *name = "";
    int computable = 0;
    if (number > 0xFFFF || !describe((GuidedTensorType)number, &name, &computable)) return 0;
    GuidedTensorType type = (GuidedTensorType)number;
    traits->name = name;
    traits->blockSize = (uint32_t)guided_block_size(type);
    traits->blockBytes = (uint32_t)guided_block_bytes(type);
    traits->computable = computable;
    traits->input = guided_input_format(type);
    return 1;
}
