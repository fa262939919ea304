import Synchronization

/// Set when the request that runs a generation is cancelled; the generation checks it between
/// tokens.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func cancel() {
        flag.store(true, ordering: .relaxed)
    }
}
