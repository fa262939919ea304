import Foundation

/// A Jinja template, parsed once and rendered as Hugging Face `transformers` renders chat
/// templates: jinja2's `ImmutableSandboxedEnvironment` with `trim_blocks`, `lstrip_blocks` and
/// the loop controls (`break`, `continue`), the globals `raise_exception(message)` and
/// `strftime_now(format)`, and a `tojson` filter that writes as `json.dumps` does.
///
/// It implements the part of Jinja that chat templates use; a template that uses more fails to
/// parse (an unknown statement, filter or test) or to render (an unknown method), with an error
/// that names the construct and where it is.
public struct JinjaTemplate: Sendable {
    /// How much a render may do before it stops with ``JinjaError/limitExceeded(_:at:)``, so
    /// that a hostile template or input cannot exhaust the stack, the memory or the time.
    public struct Limits: Sendable {
        /// How deeply blocks and expressions may nest in the source.
        public var maximumNesting = 48
        /// How deeply evaluation may recurse (through nested blocks, expressions and macro calls).
        public var maximumDepth = 384
        /// How many loop iterations a render may run in all.
        public var maximumIterations = 1_000_000
        /// How many bytes a render may write in all, and how long a string (in bytes) or a list
        /// (in items) may be.
        public var maximumLength = 16 << 20

        /// The default limits, far above what chat templates need.
        public init() {}
    }

    /// The template's source.
    public let source: String
    /// The limits its renders run under.
    public let limits: Limits
    private let nodes: [JinjaNode]

    /// Parses `source`.
    public init(source: String, limits: Limits = Limits()) throws(JinjaError) {
        self.source = source
        self.limits = limits
        nodes = try JinjaStack.run { () -> Result<[JinjaNode], JinjaError> in
            Result { () throws(JinjaError) in try JinjaParser.parse(try JinjaLexer.tokenize(source), maximumNesting: limits.maximumNesting) }
        }.get()
    }

    /// The text of the template with `variables`; `now` is the time `strftime_now` writes (in
    /// the current time zone).
    public func render(_ variables: [String: JinjaValue], now: Date = Date()) throws(JinjaError) -> String {
        let (nodes, limits) = (self.nodes, self.limits)
        return try JinjaStack.run { () -> Result<String, JinjaError> in
            Result { () throws(JinjaError) in try JinjaInterpreter(limits: limits, now: now).render(nodes, variables: variables) }
        }.get()
    }
}

extension JinjaValue {
    /// The value of JSON `text`, its objects' keys in their order (as `tojson` writes them back).
    public init(json text: String) throws(JinjaError) {
        do {
            self = try JinjaJSON.parse(text)
        } catch {
            throw error.error(at: JinjaSourceLocation(line: 1, column: 1))
        }
    }
}
