import Synchronization

/// Lets a bounded number of requests run on the model at once (the model decodes them together)
/// and a bounded number wait, in the order they came; a request beyond both bounds is refused at
/// once (503), and one whose client leaves while it waits leaves the queue.
final class AdmissionQueue: Sendable {
    struct Full: Error {}

    private struct State {
        var running = 0
        var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID = 0
    }

    private let state = Mutex(State())
    /// The most requests that run at once.
    let maximumRunning: Int
    /// The most requests that wait while others run.
    let maximumWaiting: Int

    init(maximumRunning: Int = 1, maximumWaiting: Int) {
        self.maximumRunning = max(1, maximumRunning)
        self.maximumWaiting = maximumWaiting
    }

    /// How many requests wait.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Waits for the model; throws ``Full`` when the queue is full, `CancellationError` when the
    /// task is cancelled while waiting. Each admission is ended by ``leave()``.
    func enter() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if state.running < maximumRunning {
                        state.running += 1
                        continuation.resume()
                    } else if state.waiting.count >= maximumWaiting {
                        continuation.resume(throwing: Full())
                    } else {
                        state.waiting.append((id, continuation))
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return }
                state.waiting.remove(at: index).continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Ends an admission: the first waiting request runs next.
    func leave() {
        state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
            } else {
                state.waiting.removeFirst().continuation.resume()
            }
        }
    }
}
