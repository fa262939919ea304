import GuidedKernels

/// Gives the memory that freed sessions and buffers left with the allocator back to the system
/// (glibc keeps freed blocks in per-thread arenas), so that a process's resident memory comes back
/// to its level after a load. It takes a few milliseconds: call it when work has stopped.
public func returnFreedMemoryToSystem() {
    guided_release_free_memory()
}

/// Lets the allocator keep at most `count` arenas. A server whose requests each run on threads of
/// their own otherwise gets up to 8 arenas per core (glibc), each holding what its threads freed
/// around what they still hold, and its memory stays above its level after a load; with 2, it
/// comes back. Call it first thing in a process that serves many requests at once.
public func limitAllocatorArenas(to count: Int) {
    guided_limit_allocator_arenas(Int32(clamping: max(1, count)))
}
