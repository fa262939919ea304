import PartialJSON

/// The grammar form that the text front ends (GBNF, Lark) read into and ``RuleCompiler``
/// compiles: named rules over terminals (literal characters, code-point classes, regular
/// expressions), sequences, alternatives, bounded repetition, references between rules, and
/// JSON Schemas embedded as nonterminals. Each rule keeps where its name was written, for errors.
struct GrammarRules {
    /// A place in the grammar's text: line and column from 1, columns in characters.
    struct Place: Equatable {
        var line: Int
        var column: Int
    }

    struct Rule {
        var name: String
        var body: GrammarNode
        var place: Place
        /// Whether the rule is a terminal (a Lark name in upper case): regular, written in place
        /// of each reference to it rather than called, and never recursive.
        var isTerminal = false
    }

    var rules: [Rule]
    /// The rule the text starts at: `root` in GBNF, `start` in Lark.
    var start: String
}

/// The body of a rule.
indirect enum GrammarNode {
    /// One character of the set (a class, `.`).
    case characters(CodePointSet)
    /// These characters, in order (a string literal).
    case literal([Unicode.Scalar])
    /// The rule named so, written at `place`.
    case reference(String, place: GrammarRules.Place)
    case sequence([GrammarNode])
    case alternation([GrammarNode])
    /// `node{minimum,maximum}`; `maximum` `nil` for unbounded.
    case repetition(GrammarNode, minimum: Int, maximum: Int?)
    /// A text of the regular language (a Lark `/…/` terminal).
    case regex(CodePointAutomaton)
    /// A JSON value of the schema (Lark's `%json {…}`), written at `place`.
    case jsonSchema(JSONValue, place: GrammarRules.Place)

    /// Whether the node matches the empty text, given the rules that do.
    func isNullable(_ nullableRules: Set<String>) -> Bool {
        switch self {
        case .characters, .jsonSchema: false
        case .literal(let scalars): scalars.isEmpty
        case .reference(let name, _): nullableRules.contains(name)
        case .sequence(let items): items.allSatisfy { $0.isNullable(nullableRules) }
        case .alternation(let alternatives): alternatives.contains { $0.isNullable(nullableRules) }
        case .repetition(let node, let minimum, let maximum): minimum == 0 || maximum == 0 || node.isNullable(nullableRules)
        case .regex(let automaton): !automaton.isEmpty && automaton.accepting[automaton.start]
        }
    }

    /// The rules the node may refer to before it reads a character, given the rules that match
    /// the empty text.
    func leftmostReferences(_ nullableRules: Set<String>) -> [(name: String, place: GrammarRules.Place)] {
        switch self {
        case .characters, .literal, .regex, .jsonSchema: return []
        case .reference(let name, let place): return [(name, place)]
        case .sequence(let items):
            var references: [(name: String, place: GrammarRules.Place)] = []
            for item in items {
                references += item.leftmostReferences(nullableRules)
                if !item.isNullable(nullableRules) { break }
            }
            return references
        case .alternation(let alternatives): return alternatives.flatMap { $0.leftmostReferences(nullableRules) }
        case .repetition(let node, _, let maximum): return maximum == 0 ? [] : node.leftmostReferences(nullableRules)
        }
    }

    /// Every rule reference in the node, in order.
    var references: [(name: String, place: GrammarRules.Place)] {
        switch self {
        case .characters, .literal, .regex, .jsonSchema: []
        case .reference(let name, let place): [(name, place)]
        case .sequence(let items), .alternation(let items): items.flatMap(\.references)
        case .repetition(let node, _, _): node.references
        }
    }

    /// Every embedded JSON Schema in the node, in order.
    var jsonSchemas: [JSONValue] {
        switch self {
        case .characters, .literal, .regex, .reference: []
        case .jsonSchema(let schema, _): [schema]
        case .sequence(let items), .alternation(let items): items.flatMap(\.jsonSchemas)
        case .repetition(let node, _, _): node.jsonSchemas
        }
    }
}
