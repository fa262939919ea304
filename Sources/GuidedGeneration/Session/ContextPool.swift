import Dispatch
import LlamaInference
import Synchronization

/// The contexts of an executor that serves several requests at once (a server's clients). Each
/// request takes one to itself: the idle one whose tokens share the longest beginning with its
/// conversation when it continues that conversation (so that a client's follow-up computes only
/// what is new), else a new one, which starts with the beginning it shares with an idle one
/// copied rather than computed (so that the instructions and schemas many requests share are
/// computed once). The model runs the contexts in use together. While a load lasts, as many
/// contexts are kept as it had in use at once, so that a request arriving as another ends finds
/// the idle one that ended and computes only what is new; once no request has run for
/// `settleDelay` (a second), the most recently used idle context is kept (more with `keptIdle`),
/// the others freed, and the memory goes back to its level.
final class ContextPool: Sendable {
    private struct State {
        var idle: [ContextCache] = []
        /// How many contexts are in use.
        var inUse = 0
        /// The most contexts in use at once since the pool was last quiet.
        var peakInUse = 0
        /// Whether contexts were freed since the memory last went back to the system.
        var freedSinceRelease = false

        /// Frees the oldest idle contexts beyond `limit`.
        mutating func keepIdle(atMost limit: Int) {
            guard idle.count > limit else { return }
            // The oldest are freed here (a context still held by a finishing request, when it lets go).
            idle.removeFirst(idle.count - limit)
            freedSinceRelease = true
        }
    }

    private let state = Mutex(State())
    /// How many idle contexts are kept once the pool is quiet.
    let keptIdle: Int
    /// How long after the last request the pool settles (``settle()``); `.never` leaves it to
    /// the caller.
    let settleDelay: DispatchTimeInterval

    /// How many of an idle context's last tokens a request may differ in and still continue its
    /// conversation (the end of a turn, as the template writes it back).
    static let divergingTail = 16

    init(keptIdle: Int = 1, settleDelay: DispatchTimeInterval = .seconds(1)) {
        self.keptIdle = keptIdle
        self.settleDelay = settleDelay
    }

    /// A context for a request whose conversation is `prompt`, to be given back when the request
    /// is done. Of the idle contexts, the one whose tokens share the longest beginning with
    /// `prompt`: taken when the request continues its conversation (shares all its tokens but at
    /// most ``divergingTail``) or when none shares anything; else, with `runtime`, a new context
    /// that begins with that beginning copied from it (the same instructions, say), leaving it
    /// idle for the requests that continue it or begin alike.
    func take(for prompt: [Int32], runtime: ModelRuntime? = nil) -> ContextCache {
        state.withLock { state in
            state.inUse += 1
            state.peakInUse = max(state.peakInUse, state.inUse)
            var best: (index: Int, common: Int, count: Int)?
            for (index, cache) in state.idle.enumerated() {
                let (common, count) = cache.commonPrefixLength(with: prompt)
                if common > (best?.common ?? -1) { best = (index, common, count) }
            }
            guard let best else { return ContextCache() }
            if let runtime, best.common > 0, best.count - best.common > Self.divergingTail,
                let copy = try? ContextCache(copying: best.common, of: state.idle[best.index], runtime: runtime)
            {
                return copy
            }
            return state.idle.remove(at: best.index)
        }
    }

    /// Gives back a context taken with ``take(for:)``. When the last context in use comes back,
    /// the pool settles `settleDelay` later unless requests have started again.
    func giveBack(_ cache: ContextCache) {
        let isQuiet = state.withLock { state in
            state.inUse -= 1
            state.idle.append(cache)
            // No more contexts than the load has had in use at once.
            state.keepIdle(atMost: max(keptIdle, state.peakInUse - state.inUse))
            return state.inUse == 0
        }
        // Later, when what the requests' other threads freed has come back too.
        guard isQuiet, settleDelay != .never else { return }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + settleDelay) { [self] in settle() }
    }

    /// When no context is in use: frees the idle contexts beyond `keptIdle`, starts counting the
    /// next load's peak afresh, and gives the memory that freed contexts left with the allocator
    /// back to the system.
    func settle() {
        let releasesMemory = state.withLock { state in
            guard state.inUse == 0 else { return false }
            state.keepIdle(atMost: keptIdle)
            state.peakInUse = 0
            defer { state.freedSinceRelease = false }
            return state.freedSinceRelease
        }
        if releasesMemory { returnFreedMemoryToSystem() }
    }

    /// How many contexts are idle.
    var idleCount: Int { state.withLock { $0.idle.count } }
}
