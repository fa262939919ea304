import Foundation
import Synchronization

/// Threads that run the chunks of one job together, for the matrix products of a token: the
/// caller runs chunk 0 and the workers the others. A token's products follow each other within
/// microseconds, so workers spin between jobs for about a millisecond before they sleep; waking a
/// sleeping thread costs more than a product of a small model.
final class WorkerPool: Sendable {
    /// The threads that take part, the caller included.
    let threadCount: Int
    private let state: State

    /// What the pool and its threads share.
    private final class State: @unchecked Sendable {
        let generation = Atomic<Int>(0)
        let pending = Atomic<Int>(0)
        let stopping = Atomic<Bool>(false)
        let condition = NSCondition()
        /// The current job: written by the caller before it publishes a new generation, read by
        /// the workers after they see it, cleared once they all finished.
        var job: ((Int) -> Void)?
    }

    /// How many times a worker checks for a new job before it sleeps.
    private static let spinLimit = 2_000_000
    /// How many checks a spinning thread makes between offers of its core to another thread, so
    /// that with more threads than cores (several models at once) the thread it waits for runs.
    private static let yieldInterval = 256

    init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        state = State()
        for worker in 1..<self.threadCount {
            let state = self.state
            let thread = Thread {
                var seen = 0
                while true {
                    var spins = 0
                    while state.generation.load(ordering: .acquiring) == seen {
                        spins += 1
                        if spins % Self.yieldInterval == 0 { sched_yield() }
                        if spins > Self.spinLimit {
                            state.condition.lock()
                            while state.generation.load(ordering: .acquiring) == seen { state.condition.wait() }
                            state.condition.unlock()
                        }
                    }
                    seen = state.generation.load(ordering: .acquiring)
                    if state.stopping.load(ordering: .acquiring) { return }
                    state.job?(worker)
                    state.pending.subtract(1, ordering: .releasing)
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    deinit {
        state.stopping.store(true, ordering: .releasing)
        state.condition.lock()
        state.generation.add(1, ordering: .releasing)
        state.condition.broadcast()
        state.condition.unlock()
    }

    /// Runs `body(chunk)` for every chunk in `0..<threadCount`, and returns when all are done.
    func run(_ body: (Int) -> Void) {
        guard threadCount > 1 else {
            body(0)
            return
        }
        withoutActuallyEscaping(body) { escapable in
            state.job = escapable
            state.pending.store(threadCount - 1, ordering: .releasing)
            state.condition.lock()
            state.generation.add(1, ordering: .releasing)
            state.condition.broadcast()
            state.condition.unlock()
            escapable(0)
            var spins = 0
            while state.pending.load(ordering: .acquiring) > 0 {
                spins += 1
                if spins % Self.yieldInterval == 0 { sched_yield() }
            }
            state.job = nil
        }
    }
}
