import Foundation

/// Runs `body` on a thread of its own, away from the cooperative pool that async code shares:
/// model evaluation blocks for as long as it computes.
func onDetachedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}
