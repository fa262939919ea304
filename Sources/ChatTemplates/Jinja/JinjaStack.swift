import Foundation
import Synchronization

/// Runs the parser and the interpreter on a thread with a stack of known size: they recurse as
/// deeply as a template nests (up to ``JinjaTemplate/Limits``), and the caller's thread may have
/// a small stack (Swift concurrency's threads have 512 KiB on macOS).
enum JinjaStack {
    /// The stack of the thread templates run on: room for the deepest nesting the limits allow,
    /// also in debug builds, whose frames are several times larger.
    static let size = 16 << 20

    /// `body`'s result, computed on a thread with a stack of ``size`` bytes.
    static func run<Success: Sendable>(_ body: @escaping @Sendable () -> Result<Success, JinjaError>) -> Result<Success, JinjaError> {
        let box = Box<Success>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = body()
            box.result.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
        return box.result.withLock { $0 } ?? body()
    }

    private final class Box<Success: Sendable>: Sendable {
        let result = Mutex<Result<Success, JinjaError>?>(nil)
    }
}
