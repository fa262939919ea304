#include "GuidedKernels.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void guided_release_free_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

void guided_limit_allocator_arenas(int count) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, count);
#else
    (void)count;
#endif
}
