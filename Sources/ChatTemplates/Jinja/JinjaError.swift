/// A place in a template's source: a line and a column, both counted from 1, the column in
/// Unicode scalars.
public struct JinjaSourceLocation: Sendable, Equatable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in Unicode scalars.
    public var column: Int

    /// The location at `line` and `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// Why a Jinja template cannot be parsed or rendered, with where in its source.
public enum JinjaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source is not a well-formed template.
    case syntax(String, at: JinjaSourceLocation)
    /// The template uses a construct this interpreter does not implement: the message names it
    /// (`filter 'wordwrap'`, `statement 'include'`).
    case unsupported(String, at: JinjaSourceLocation)
    /// Rendering failed where jinja2 fails too: an undefined value used, an operation on values
    /// of the wrong types, a sandboxed method called.
    case evaluation(String, at: JinjaSourceLocation)
    /// The template called `raise_exception(message)`.
    case raised(String, at: JinjaSourceLocation)
    /// The template nests, loops or writes more than a render allows.
    case limitExceeded(String, at: JinjaSourceLocation)

    /// Where in the source it happened.
    public var location: JinjaSourceLocation {
        switch self {
        case .syntax(_, let location), .unsupported(_, let location), .evaluation(_, let location), .raised(_, let location),
            .limitExceeded(_, let location):
            location
        }
    }

    /// What happened, without the location.
    public var message: String {
        switch self {
        case .syntax(let message, _), .unsupported(let message, _), .evaluation(let message, _), .raised(let message, _),
            .limitExceeded(let message, _):
            message
        }
    }

    /// What failed and where, naming the construct.
    public var description: String {
        switch self {
        case .syntax(let message, let location): "template syntax error at \(location): \(message)"
        case .unsupported(let construct, let location): "unsupported \(construct) at \(location)"
        case .evaluation(let message, let location): "template error at \(location): \(message)"
        case .raised(let message, let location): "the template raised an exception at \(location): \(message)"
        case .limitExceeded(let message, let location): "template limit exceeded at \(location): \(message)"
        }
    }
}
