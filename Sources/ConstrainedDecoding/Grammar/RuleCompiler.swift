import PartialJSON

/// Compiles ``GrammarRules`` into grammar templates: the start rule's first, then one per rule it
/// reaches, then those of the JSON Schemas the rules embed. A rule reference is a call of the
/// rule's template, expanded when the automaton reaches it (as a JSON Schema `$ref` is), so
/// recursion is followed as deep as ``CompileOptions/maximumReferenceDepth`` (calls nested in
/// calls); a rule that refers to itself as the last thing it reads (`list ::= item list | item`)
/// loops back to its start instead, at no depth. A terminal is written out in place of each
/// reference to it. Left recursion is refused.
struct RuleCompiler {
    private let rules: [String: GrammarRules.Rule]
    /// The rules the start rule reaches, itself first: their templates, in this order.
    private let order: [String]
    private let templateIDs: [String: Int32]
    private let options: CompileOptions

    /// Checks the grammar: each rule defined once, every reference defined, a start rule,
    /// terminals that refer to terminals only and never to themselves, no left recursion.
    init(grammar: GrammarRules, options: CompileOptions) throws(GrammarError) {
        var rules: [String: GrammarRules.Rule] = [:]
        for rule in grammar.rules {
            guard rules[rule.name] == nil else { throw .duplicateRule(name: rule.name, line: rule.place.line, column: rule.place.column) }
            rules[rule.name] = rule
        }
        for rule in grammar.rules {
            for reference in rule.body.references {
                guard let target = rules[reference.name] else {
                    throw .undefinedRule(name: reference.name, rule: rule.name, line: reference.place.line, column: reference.place.column)
                }
                if rule.isTerminal && !target.isTerminal {
                    throw .ruleInTerminal(terminal: rule.name, rule: reference.name, line: reference.place.line, column: reference.place.column)
                }
            }
        }
        guard let start = rules[grammar.start], !start.isTerminal else { throw .missingStart(rule: grammar.start) }
        try Self.checkTerminalRecursion(grammar.rules.filter(\.isTerminal))
        try Self.checkLeftRecursion(grammar.rules)
        var order = [grammar.start]
        var ids: [String: Int32] = [grammar.start: 0]
        var index = 0
        while index < order.count {
            for reference in rules[order[index]]?.body.references ?? [] where ids[reference.name] == nil && rules[reference.name]?.isTerminal == false {
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

    /// Refuses a terminal that refers to itself, directly or through other terminals: terminals
    /// are regular.
    private static func checkTerminalRecursion(_ terminals: [GrammarRules.Rule]) throws(GrammarError) {
        let references = Dictionary(terminals.map { ($0.name, $0.body.references.map(\.name)) }, uniquingKeysWith: { first, _ in first })
        if let cycle = firstCycle(in: terminals, references: references) {
            throw .recursiveTerminal(name: cycle.name, line: cycle.place.line, column: cycle.place.column)
        }
    }

    /// Refuses a rule that can reach itself through the references it may make before reading a
    /// character, naming the first such rule in the order written.
    private static func checkLeftRecursion(_ rules: [GrammarRules.Rule]) throws(GrammarError) {
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
        if let cycle = firstCycle(in: rules, references: leftmost) {
            throw .leftRecursion(rule: cycle.name, line: cycle.place.line, column: cycle.place.column)
        }
    }

    /// The first rule, in the order written, found on a cycle of `references`.
    private static func firstCycle(in rules: [GrammarRules.Rule], references: [String: [String]]) -> GrammarRules.Rule? {
        // Depth-first, without recursion: 1 while a rule is on the path, 2 once done.
        var marks: [String: Int] = [:]
        for rule in rules where marks[rule.name] == nil {
            var path: [(name: String, next: Int)] = [(rule.name, 0)]
            marks[rule.name] = 1
            while let top = path.last {
                let targets = references[top.name] ?? []
                guard top.next < targets.count else {
                    marks[top.name] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let next = targets[top.next]
                switch marks[next] {
                case 1?: return rules.first { $0.name == next } ?? rule
                case 2?: continue
                default:
                    marks[next] = 1
                    path.append((next, 0))
                }
            }
        }
        return nil
    }

    /// The templates of the rules the start rule reaches, its own first, then those of the JSON
    /// Schemas they embed; with the schemas' keywords read as annotations and those dropped
    /// (``CompiledGrammar/ignoredKeywords``, ``CompiledGrammar/droppedKeywords``).
    func templates() throws(GrammarError) -> (templates: [GrammarTemplate], ignoredKeywords: [String], droppedKeywords: [String]) {
        // The embedded schemas, each compiled once, after the rules.
        var schemaIDs: [JSONValue: Int32] = [:]
        var schemaTemplates: [GrammarTemplate] = []
        var ignored: [String] = []
        var dropped: [String] = []
        for name in order {
            guard let rule = rules[name] else { continue }
            for schema in rule.body.jsonSchemas where schemaIDs[schema] == nil {
                let offset = Int32(order.count + schemaTemplates.count)
                do {
                    let document = try SchemaValue.schemaDocument(schema)
                    try SchemaCost.check(document, budget: options.stateBudget)
                    var compiler = SchemaCompiler(document: document, options: options)
                    for var template in try compiler.compileAll() {
                        template.nfa.shiftCalls(by: offset)
                        schemaTemplates.append(template)
                    }
                    ignored += compiler.annotations
                    dropped += compiler.dropped
                } catch {
                    let place = Self.place(of: schema, in: rule.body) ?? rule.place
                    throw .embeddedSchema(rule: name, line: place.line, column: place.column, reason: error.description)
                }
                schemaIDs[schema] = offset
            }
        }
        var templates: [GrammarTemplate] = []
        var statesUsed = schemaTemplates.reduce(0) { $0 + $1.nfa.stateCount }
        do {
            for name in order {
                guard let rule = rules[name] else { continue }
                var builder = NFABuilder(stateBudget: options.stateBudget - statesUsed)
                let start = try builder.newState()
                let body = try fragment(rule.body, of: name, loopingTo: start, atEnd: true, schemas: schemaIDs, in: &builder)
                builder.epsilon(start, body.start)
                statesUsed += builder.nfa.states.count
                templates.append(GrammarTemplate(nfa: CompactNFA(builder.nfa), start: start, end: body.end))
            }
        } catch {
            throw GrammarError(building: error)
        }
        return (templates + schemaTemplates, ignored, dropped)
    }

    /// Where `schema` is embedded in `node`.
    private static func place(of schema: JSONValue, in node: GrammarNode) -> GrammarRules.Place? {
        switch node {
        case .jsonSchema(let value, let place): value == schema ? place : nil
        case .sequence(let items), .alternation(let items): items.lazy.compactMap { place(of: schema, in: $0) }.first
        case .repetition(let inner, _, _): place(of: schema, in: inner)
        case .characters, .literal, .reference, .regex: nil
        }
    }

    /// The fragment of `node` in rule `rule`, whose template starts at `start`; `atEnd` when
    /// nothing of the rule follows the node, so that a reference to the rule itself loops back.
    private func fragment(
        _ node: GrammarNode, of rule: String, loopingTo start: Int32, atEnd: Bool, schemas: [JSONValue: Int32], in builder: inout NFABuilder
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
        case .regex(let automaton):
            guard !automaton.isEmpty else { return Fragment(start: try builder.newState(), end: try builder.newState()) }
            return try JSONStringSpelling.fragment(of: automaton, spelling: .raw, in: &builder)
        case .jsonSchema(let schema, _):
            return try builder.call(schemas[schema] ?? 0)
        case .reference(let name, _):
            if let terminal = rules[name], terminal.isTerminal {
                return try fragment(terminal.body, of: rule, loopingTo: start, atEnd: false, schemas: schemas, in: &builder)
            }
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
                fragments.append(try fragment(item, of: rule, loopingTo: start, atEnd: atEnd && index == items.count - 1, schemas: schemas, in: &builder))
            }
            return try builder.sequence(fragments)
        case .alternation(let alternatives):
            var fragments: [Fragment] = []
            for alternative in alternatives {
                fragments.append(try fragment(alternative, of: rule, loopingTo: start, atEnd: atEnd, schemas: schemas, in: &builder))
            }
            return try builder.alternation(fragments)
        case .repetition(let inner, let minimum, let maximum):
            // At most one copy: it is the last thing read when the node is.
            let innerAtEnd = atEnd && (maximum ?? 2) <= 1
            return try builder.repeated(minimum: minimum, maximum: maximum) { (builder: inout NFABuilder) throws(SchemaError) in
                try fragment(inner, of: rule, loopingTo: start, atEnd: innerAtEnd, schemas: schemas, in: &builder)
            }
        }
    }
}
