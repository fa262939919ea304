import GuidedKernels

/// Gives the memory that freed sessions and buffers left with the allocator back to the system
/// (glibc keeps freed blocks in per-thread arenas), so that a process's resident memory comes back
/// to its level after a load. It takes a few milliseconds: call it when work has stopped.
public func returnFreedMemoryToSystem() {
    guided_release_free_memory()
}
