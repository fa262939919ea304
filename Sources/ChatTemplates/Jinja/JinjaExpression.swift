/// An expression of a template, where it starts in the source.
struct JinjaExpression: Sendable {
    /// A binary operator.
    enum BinaryOperator: String, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/", floorDivide = "//", modulo = "%", power = "**"
        case concatenate = "~", and, or
    }

    /// A comparison operator.
    enum ComparisonOperator: String, Sendable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case contained = "in", notContained = "not in"
    }

    /// An operator of a chain and the operand to its right.
    struct Step: Sendable {
        let operation: BinaryOperator
        let operand: JinjaExpression
        let location: JinjaSourceLocation
    }

    /// The arguments of a call, a filter or a test.
    struct Arguments: Sendable {
        var positional: [JinjaExpression] = []
        var keywords: [(name: String, value: JinjaExpression)] = []
    }

    /// What the expression is.
    indirect enum Kind: Sendable {
        /// A literal value (`'text'`, `1`, `1.5`, `true`, `none`).
        case literal(JinjaValue)
        /// A variable.
        case name(String)
        /// `[a, b]`.
        case list([JinjaExpression])
        /// `(a, b)` or `a, b`.
        case tuple([JinjaExpression])
        /// `{key: value}`.
        case dictionary([(key: JinjaExpression, value: JinjaExpression)])
        /// `value.name`.
        case attribute(JinjaExpression, String)
        /// `value[index]`.
        case item(JinjaExpression, JinjaExpression)
        /// `value[start:stop:step]`.
        case slice(JinjaExpression, start: JinjaExpression?, stop: JinjaExpression?, step: JinjaExpression?)
        /// `callee(arguments)`.
        case call(JinjaExpression, Arguments)
        /// `value | name(arguments)`.
        case filter(JinjaExpression, name: String, Arguments)
        /// `value is name(arguments)`, or `is not` when negated.
        case test(JinjaExpression, name: String, Arguments, negated: Bool)
        /// `not value`.
        case not(JinjaExpression)
        /// `-value`.
        case negate(JinjaExpression)
        /// `+value`.
        case plus(JinjaExpression)
        /// `first op1 second op2 third ...`: operators of one precedence, applied from the left
        /// (`and` and `or` short-circuiting), kept flat so that a long chain nests nothing.
        case binary(JinjaExpression, [Step])
        /// `first op1 second op2 third`, chained as Python chains comparisons.
        case comparison(JinjaExpression, [(ComparisonOperator, JinjaExpression)])
        /// `then if condition else otherwise`; without `else`, undefined when the condition fails.
        case conditional(condition: JinjaExpression, then: JinjaExpression, otherwise: JinjaExpression?)
    }

    let kind: Kind
    let location: JinjaSourceLocation
    /// How deep the expression's tree is, which evaluation recurses through.
    let depth: Int

    init(_ kind: Kind, at location: JinjaSourceLocation) {
        self.kind = kind
        self.location = location
        depth = 1 + (Self.children(of: kind).map(\.depth).max() ?? 0)
    }

    private static func children(of kind: Kind) -> [JinjaExpression] {
        switch kind {
        case .literal, .name: []
        case .list(let items), .tuple(let items): items
        case .dictionary(let pairs): pairs.flatMap { [$0.key, $0.value] }
        case .attribute(let value, _), .not(let value), .negate(let value), .plus(let value): [value]
        case .item(let value, let index): [value, index]
        case .slice(let value, let start, let stop, let step): [value] + [start, stop, step].compactMap { $0 }
        case .call(let callee, let arguments): [callee] + arguments.all
        case .filter(let value, _, let arguments), .test(let value, _, let arguments, _): [value] + arguments.all
        case .binary(let first, let steps): [first] + steps.map(\.operand)
        case .comparison(let first, let rest): [first] + rest.map(\.1)
        case .conditional(let condition, let then, let otherwise): [condition, then] + [otherwise].compactMap { $0 }
        }
    }
}

extension JinjaExpression.Arguments {
    /// Every argument expression, positional then keyword.
    var all: [JinjaExpression] { positional + keywords.map(\.value) }
}
