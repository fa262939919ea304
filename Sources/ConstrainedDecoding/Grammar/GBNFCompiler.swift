/// Compiles the rules of a GBNF grammar into grammar templates: `root`'s first, then one per
/// rule it reaches. A rule reference is a call of the rule's template, expanded when the
/// automaton reaches it (as a JSON Schema `$ref` is), so recursion is followed as deep as
/// ``CompileOptions/maximumReferenceDepth`` (calls nested in calls); a rule that refers to itself
/// as the last thing it reads (`list ::= item list | item`) loops back to its start instead, at
/// no depth. Left recursion is refused.
struct GBNFCompiler {
    private let rules: [String: GBNFGrammar.Rule]
    /// The rules `root` reaches, `root` first: their templates, in this order.
    private let order: [String]
    private let templateIDs: [String: Int32]
    private let options: CompileOptions

    /// Checks the grammar: each rule defined once, every reference defined, a `root`, no left
    /// recursion.
    init(grammar: GBNFGrammar, options: CompileOptions) throws(GrammarError) {
        var rules: [String: GBNFGrammar.Rule] = [:]
        for rule in grammar.rules {
            guard rules[rule.name] == nil else { throw .duplicateRule(name: rule.name, line: rule.place.line, column: rule.place.column) }
            rules[rule.name] = rule
        }
        for rule in grammar.rules {
            for reference in rule.body.references where rules[reference.name] == nil {
                throw .undefinedRule(name: reference.name, rule: rule.name, line: reference.place.line, column: reference.place.column)
            }
        }
        guard rules["root"] != nil else { throw .missingRoot }
        try Self.checkLeftRecursion(grammar.rules)
        var order = ["root"]
        var ids: [String: Int32] = ["root": 0]
        var index = 0
        while index < order.count {
            for reference in rules[order[index]]?.body.references ?? [] where ids[reference.name] == nil {
                ids[reference.name] = Int32(order.count)
                order.append(reference.name)
            }
            index += 1
        }
        self.rules = rules
        self.order = order
        templateIDs = ids
        self.options = options
    }

    /// Refuses a rule that can reach itself through the references it may make before reading a
    /// character, naming the first such rule in the order written.
    private static func checkLeftRecursion(_ rules: [GBNFGrammar.Rule]) throws(GrammarError) {
        var nullable: Set<String> = []
        var changed = true
        while changed {
            changed = false
            for rule in rules where !nullable.contains(rule.name) && rule.body.isNullable(nullable) {
                nullable.insert(rule.name)
                changed = true
            }
        }
        let leftmost = Dictionary(rules.map { ($0.name, $0.body.leftmostReferences(nullable).map(\.name)) }, uniquingKeysWith: { first, _ in first })
        // Depth-first, without recursion: 1 while a rule is on the path, 2 once done.
        var marks: [String: Int] = [:]
        for rule in rules where marks[rule.name] == nil {
            var path: [(name: String, next: Int)] = [(rule.name, 0)]
            marks[rule.name] = 1
            while let top = path.last {
                let references = leftmost[top.name] ?? []
                guard top.next < references.count else {
                    marks[top.name] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let next = references[top.next]
                switch marks[next] {
                case 1?:
                    let place = rules.first { $0.name == next }?.place ?? GBNFGrammar.Place(line: 1, column: 1)
                    throw .leftRecursion(rule: next, line: place.line, column: place.column)
                case 2?: continue
                default:
                    marks[next] = 1
                    path.append((next, 0))
                }
            }
        }
    }

    /// The templates of the rules `root` reaches, `root`'s first.
    func templates() throws(GrammarError) -> [GrammarTemplate] {
        var templates: [GrammarTemplate] = []
        var statesUsed = 0
        do {
            for name in order {
                guard let rule = rules[name] else { continue }
                var builder = NFABuilder(stateBudget: options.stateBudget - statesUsed)
                let start = try builder.newState()
                let body = try fragment(rule.body, of: name, loopingTo: start, atEnd: true, in: &builder)
                builder.epsilon(start, body.start)
                statesUsed += builder.nfa.states.count
                templates.append(GrammarTemplate(nfa: CompactNFA(builder.nfa), start: start, end: body.end))
            }
        } catch {
            throw GrammarError(building: error)
        }
        return templates
    }

    /// The fragment of `node` in rule `rule`, whose template starts at `start`; `atEnd` when
    /// nothing of the rule follows the node, so that a reference to the rule itself loops back.
    private func fragment(
        _ node: GBNFNode, of rule: String, loopingTo start: Int32, atEnd: Bool, in builder: inout NFABuilder
    ) throws(SchemaError) -> Fragment {
        switch node {
        case .characters(let set):
            let from = try builder.newState()
            let to = try builder.newState()
            for range in set.ranges {
                for sequence in UTF8Sequences.of(range) { try builder.path(sequence, from: from, to: to) }
            }
            return Fragment(start: from, end: to)
        case .literal(let scalars):
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            return try builder.literal(text.utf8)
        case .reference(let name, _):
            if atEnd && name == rule {
                // The rule again, as the last thing it reads: back to its start; the end of this
                // fragment is never reached.
                let jump = try builder.newState()
                builder.epsilon(jump, start)
                return Fragment(start: jump, end: try builder.newState())
            }
            return try builder.call(templateIDs[name] ?? 0)
        case .sequence(let items):
            var fragments: [Fragment] = []
            for (index, item) in items.enumerated() {
                fragments.append(try fragment(item, of: rule, loopingTo: start, atEnd: atEnd && index == items.count - 1, in: &builder))
            }
            return try builder.sequence(fragments)
        case .alternation(let alternatives):
            var fragments: [Fragment] = []
            for alternative in alternatives {
                fragments.append(try fragment(alternative, of: rule, loopingTo: start, atEnd: atEnd, in: &builder))
            }
            return try builder.alternation(fragments)
        case .repetition(let inner, let minimum, let maximum):
            // At most one copy: it is the last thing read when the node is.
            let innerAtEnd = atEnd && (maximum ?? 2) <= 1
            return try builder.repeated(minimum: minimum, maximum: maximum) { (builder: inout NFABuilder) throws(SchemaError) in
                try fragment(inner, of: rule, loopingTo: start, atEnd: innerAtEnd, in: &builder)
            }
        }
    }
}
