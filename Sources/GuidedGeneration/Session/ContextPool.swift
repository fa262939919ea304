import Dispatch
import LlamaInference
import Synchronization

/// The contexts of an executor that serves several requests at once (a server's clients): each
/// request takes one to itself, the idle one whose tokens share the longest beginning with its
/// conversation (so that a client's follow-up computes only what is new), or a new one; the model
/// runs the contexts in use together. The most recently used idle context is kept (more with
/// `keptIdle`) and the others freed, so that memory comes back to its level once a load has passed.
final class ContextPool: Sendable {
    private struct State {
        var idle: [ContextCache] = []
        /// How many contexts are in use.
        var inUse = 0
        /// Whether contexts were freed since the memory last went back to the system.
        var freedSinceRelease = false
    }

    private let state = Mutex(State())
    /// How many idle contexts are kept.
    let keptIdle: Int

    init(keptIdle: Int = 1) {
        self.keptIdle = keptIdle
    }

    /// A context for a request whose conversation is `prompt`, to be given back when the request
    /// is done.
    func take(for prompt: [Int32]) -> ContextCache {
        state.withLock { state in
            state.inUse += 1
            var best: (index: Int, common: Int)?
            for (index, cache) in state.idle.enumerated() {
                let common = cache.commonPrefixLength(with: prompt)
                if common > (best?.common ?? -1) { best = (index, common) }
            }
            return best.map { state.idle.remove(at: $0.index) } ?? ContextCache()
        }
    }

    /// Gives back a context taken with ``take(for:)``. When the last context in use comes back
    /// after others were freed, the memory the load left with the allocator goes back to the
    /// system shortly after, unless requests have started again.
    func giveBack(_ cache: ContextCache) {
        let releasesMemory = state.withLock { state in
            state.inUse -= 1
            state.idle.append(cache)
            if state.idle.count > keptIdle {
                // The oldest are freed here (a context still held by a finishing request, when it lets go).
                state.idle.removeFirst(state.idle.count - keptIdle)
                state.freedSinceRelease = true
            }
            guard state.inUse == 0, state.freedSinceRelease else { return false }
            state.freedSinceRelease = false
            return true
        }
        guard releasesMemory else { return }
        // A second later, when what the requests' other threads freed has come back too, if
        // no request has started meanwhile.
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.releaseDelay) { [self] in
            if state.withLock({ $0.inUse == 0 }) { returnFreedMemoryToSystem() }
        }
    }

    /// How long after the last request the memory goes back.
    static let releaseDelay = DispatchTimeInterval.seconds(1)
}
