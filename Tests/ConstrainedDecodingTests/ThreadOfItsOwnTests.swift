import Foundation
import Testing
import TestSupport

/// The trait that moves long computations off the cooperative pool really does.
@Suite struct ThreadOfItsOwnTests {
    /// The test whose thread of its own runs the caller; `nil` on any other thread.
    static func threadName() -> String? { Thread.current.threadDictionary[ThreadOfItsOwnTrait.nameKey] as? String }

    @Test(.threadOfItsOwn) func theTestRunsOnTheThreadNamedForIt() async throws {
        #expect(Self.threadName() == "theTestRunsOnTheThreadNamedForIt()")
        try await Task.sleep(for: .milliseconds(1))
        // After a suspension, the test comes back to its thread.
        #expect(Self.threadName() == "theTestRunsOnTheThreadNamedForIt()")
    }

    @Test func withoutTheTraitTheTestRunsOnThePool() {
        #expect(Self.threadName() == nil)
    }
}
