import Synchronization

/// The contexts of an executor that serves several requests at once (a server's clients): each
/// request takes one to itself, the idle one whose tokens share the longest beginning with its
/// conversation (so that a client's follow-up computes only what is new), or a new one; the model
/// runs the contexts in use together. The most recently used idle context is kept (more with
/// `keptIdle`) and the others freed, so that memory comes back to its level once a load has passed.
final class ContextPool: Sendable {
    private let idle = Mutex<[ContextCache]>([])
    /// How many idle contexts are kept.
    let keptIdle: Int

    init(keptIdle: Int = 1) {
        self.keptIdle = keptIdle
    }

    /// A context for a request whose conversation is `prompt`, to be given back when the request
    /// is done.
    func take(for prompt: [Int32]) -> ContextCache {
        idle.withLock { idle in
            var best: (index: Int, common: Int)?
            for (index, cache) in idle.enumerated() {
                let common = cache.commonPrefixLength(with: prompt)
                if common > (best?.common ?? -1) { best = (index, common) }
            }
            return best.map { idle.remove(at: $0.index) } ?? ContextCache()
        }
    }

    /// Gives back a context taken with ``take(for:)``.
    func giveBack(_ cache: ContextCache) {
        idle.withLock { idle in
            idle.append(cache)
            if idle.count > keptIdle { idle.removeFirst(idle.count - keptIdle) }
        }
    }
}
