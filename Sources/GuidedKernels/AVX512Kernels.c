// The kernels with AVX-512 VNNI on 256-bit registers besides AVX2, FMA and F16C (Intel since Ice
// Lake and Cascade Lake, AMD since Zen 4): the integer products in one `vpdpbusd` per block.
#if defined(__x86_64__)
#define X86_TARGET __attribute__((target("avx2,fma,f16c,avx512f,avx512bw,avx512vl,avx512vnni")))
#define X86_VNNI 1
#include "X86Kernels.h"

const GuidedKernelTable guided_avx512_kernels = {quantize, multiply, attend};
#endif
