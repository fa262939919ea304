import Testing

/// Runs each test it applies to on a thread of its own rather than on the cooperative pool.
///
/// The tests run in parallel on a pool as wide as the machine's cores; a test that computes for
/// a minute without suspending holds one of its threads all that time, and on two cores two
/// such tests stall every other test, whose servers and streams then time out. A test with this
/// trait keeps its task (and so its issues and task-local values) but runs on its own thread.
public struct ThreadOfItsOwnTrait: TestTrait, SuiteTrait, TestScoping {
    /// The key under which a test's thread keeps, in its dictionary, the name of the test.
    public static let nameKey = "ThreadOfItsOwnTrait.test"

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Each case of each test gets a thread; a suite, or a test around its cases, needs none.
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadOfItsOwnExecutor(name: test.name)
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) {
            try await function()
        }
    }
}

extension Trait where Self == ThreadOfItsOwnTrait {
    /// Runs the test (or each test of the suite) on a thread of its own: for tests that compute
    /// for long without suspending.
    public static var threadOfItsOwn: Self { Self() }
}
