// The kernels in AVX2, FMA and F16C instructions (Intel since Haswell, AMD since Zen).
#if defined(__x86_64__)
#define X86_TARGET __attribute__((target("avx2,fma,f16c")))
#define X86_VNNI 0
#include "X86Kernels.h"

const GuidedKernelTable guided_avx2_kernels = {quantize, multiply, attend};
#endif
