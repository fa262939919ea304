/// A failure of an operation on values, before it is placed in the template: the interpreter
/// turns it into a ``JinjaError`` at the expression that failed.
struct JinjaFailure: Error {
    enum Kind {
        case evaluation, unsupported, limitExceeded
    }

    let kind: Kind
    let message: String

    static func evaluation(_ message: String) -> JinjaFailure {
        JinjaFailure(kind: .evaluation, message: message)
    }

    static func unsupported(_ construct: String) -> JinjaFailure {
        JinjaFailure(kind: .unsupported, message: construct)
    }

    static func limitExceeded(_ message: String) -> JinjaFailure {
        JinjaFailure(kind: .limitExceeded, message: message)
    }

    /// The error at `location`.
    func error(at location: JinjaSourceLocation) -> JinjaError {
        switch kind {
        case .evaluation: .evaluation(message, at: location)
        case .unsupported: .unsupported(message, at: location)
        case .limitExceeded: .limitExceeded(message, at: location)
        }
    }
}
