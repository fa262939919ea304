import Foundation

/// A task executor that runs its jobs on one thread of its own, which ends once `finish()` is
/// called and the jobs enqueued before it have run; a job enqueued after `finish()` (by a task
/// that outlives the test and inherited its preference) goes to the global concurrent executor.
final class ThreadOfItsOwnExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isFinished = false

    /// Starts the thread, which keeps `name` in its dictionary under `ThreadOfItsOwnTrait.nameKey`,
    /// with a 16 MiB stack, for deeply nested schemas.
    init(name: String) {
        let thread = Thread { [self] in
            Thread.current.threadDictionary[ThreadOfItsOwnTrait.nameKey] = name
            runJobs()
        }
        thread.stackSize = 16 << 20
        thread.start()
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        let isOpen = !isFinished
        if isOpen {
            jobs.append(job)
            condition.signal()
        }
        condition.unlock()
        if !isOpen { globalConcurrentExecutor.enqueue(job) }
    }

    /// Lets the thread end when it has no job left.
    func finish() {
        condition.lock()
        isFinished = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !isFinished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
