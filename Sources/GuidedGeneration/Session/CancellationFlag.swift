import Synchronization

/// Set when the request that runs a generation is cancelled; the generation checks it between
/// tokens.
package final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    package var isCancelled: Bool { flag.load(ordering: .relaxed) }

    package func cancel() {
        flag.store(true, ordering: .relaxed)
    }
}
