/// A statement of a template (text, an output, a block tag with its body), where it starts in
/// the source.
struct JinjaNode: Sendable {
    /// What a `set` or `for` assigns to.
    indirect enum Target: Sendable {
        /// A variable.
        case name(String)
        /// Several, unpacked from a sequence (`for key, value in ...`).
        case tuple([Target])
        /// An attribute of a namespace (`set ns.count = ...`).
        case namespaceAttribute(String, String)
    }

    /// A filter applied to the output of a block (`{% filter upper %}`, `{% set x | trim %}`).
    struct Filter: Sendable {
        let name: String
        let arguments: JinjaExpression.Arguments
        let location: JinjaSourceLocation
    }

    /// A `for` loop.
    struct Loop: Sendable {
        let target: Target
        let iterable: JinjaExpression
        /// The `if` that skips items.
        let condition: JinjaExpression?
        let body: [JinjaNode]
        /// The `else` body, rendered when no item was looped over.
        let otherwise: [JinjaNode]
    }

    /// A macro's definition.
    struct Macro: Sendable {
        let name: String
        let parameters: [(name: String, defaultValue: JinjaExpression?)]
        let body: [JinjaNode]
    }

    /// What the statement is.
    indirect enum Kind: Sendable {
        /// Text written as it is.
        case text(String)
        /// `{{ expression }}`.
        case output(JinjaExpression)
        /// `if`, its `elif`s and its `else`.
        case conditional([(condition: JinjaExpression, body: [JinjaNode])], otherwise: [JinjaNode])
        /// `for`.
        case loop(Loop)
        /// `set target = value`.
        case assignment(Target, JinjaExpression)
        /// `set target | filters %}body{% endset`.
        case blockAssignment(Target, filters: [Filter], body: [JinjaNode])
        /// `macro name(parameters)`.
        case macro(Macro)
        /// `filter name %}body{% endfilter`.
        case filterBlock([Filter], body: [JinjaNode])
        /// `with name = value %}body{% endwith`: the body in a scope of its own.
        case scope([(Target, JinjaExpression)], body: [JinjaNode])
        /// `break`.
        case breakLoop
        /// `continue`.
        case continueLoop
    }

    let kind: Kind
    let location: JinjaSourceLocation
}
