/// A GBNF grammar as written: its rules, in order, each with where its name stands.
struct GBNFGrammar {
    /// A place in the grammar's text: line and column from 1, columns in characters.
    struct Place: Equatable {
        var line: Int
        var column: Int
    }

    struct Rule {
        var name: String
        var body: GBNFNode
        var place: Place
    }

    var rules: [Rule]
}

/// The body of a GBNF rule.
indirect enum GBNFNode {
    /// One character of the set (a class, `.`).
    case characters(CodePointSet)
    /// These characters, in order (a string literal).
    case literal([Unicode.Scalar])
    /// The rule named so, written at `place`.
    case reference(String, place: GBNFGrammar.Place)
    case sequence([GBNFNode])
    case alternation([GBNFNode])
    /// `node{minimum,maximum}`; `maximum` `nil` for unbounded.
    case repetition(GBNFNode, minimum: Int, maximum: Int?)

    /// Whether the node matches the empty text, given the rules that do.
    func isNullable(_ nullableRules: Set<String>) -> Bool {
        switch self {
        case .characters: false
        case .literal(let scalars): scalars.isEmpty
        case .reference(let name, _): nullableRules.contains(name)
        case .sequence(let items): items.allSatisfy { $0.isNullable(nullableRules) }
        case .alternation(let alternatives): alternatives.contains { $0.isNullable(nullableRules) }
        case .repetition(let node, let minimum, let maximum): minimum == 0 || maximum == 0 || node.isNullable(nullableRules)
        }
    }

    /// The rules the node may refer to before it reads a character, given the rules that match
    /// the empty text.
    func leftmostReferences(_ nullableRules: Set<String>) -> [(name: String, place: GBNFGrammar.Place)] {
        switch self {
        case .characters, .literal: return []
        case .reference(let name, let place): return [(name, place)]
        case .sequence(let items):
            var references: [(name: String, place: GBNFGrammar.Place)] = []
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
    var references: [(name: String, place: GBNFGrammar.Place)] {
        switch self {
        case .characters, .literal: []
        case .reference(let name, let place): [(name, place)]
        case .sequence(let items), .alternation(let items): items.flatMap(\.references)
        case .repetition(let node, _, _): node.references
        }
    }
}
