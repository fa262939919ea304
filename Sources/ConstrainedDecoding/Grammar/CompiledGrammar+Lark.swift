/// Lark grammars, as llguidance reads them.
extension CompiledGrammar {
    /// Compiles a Lark grammar as llguidance takes it (see ``LarkParser`` for the syntax read);
    /// the text starts at rule `start`.
    ///
    /// Rules (names in lower case) become definitions called where they are referred to, as in
    /// ``init(gbnf:options:)``, with the same depth limit; a rule that refers to itself first
    /// (`expr: expr "+" term | term`) is read as the repetition it stands for
    /// (`expr: term ("+" term)*`), and left recursion through other rules is refused. Terminals
    /// (names in upper case, strings, `/…/` expressions) are regular: each is written out where
    /// it is used, and what `%ignore` names may stand before each of them and at the end of the
    /// text. Terminals are parts of the text, not the output of a lexer: a text that a greedy
    /// lexer would split otherwise is still accepted when some split fits the rules. `%json {…}`
    /// stands for a JSON value of the schema, compiled with `options` as
    /// ``init(jsonSchema:options:)-(String,_)`` compiles it.
    ///
    /// - Throws: ``GrammarError`` naming the rule, line and column: a syntax error or what is not
    ///   supported, a reference to a rule that is not defined, a rule defined twice, a terminal
    ///   that refers to itself or to a rule, left recursion, an embedded schema that cannot be
    ///   enforced, no `start` rule; or ``GrammarError/tooLarge(_:)`` past the state budget.
    public init(lark: String, options: CompileOptions = CompileOptions()) throws(GrammarError) {
        let parsed = try LarkParser.parse(lark)
        guard parsed.rules.contains(where: { $0.name == "start" && !$0.isTerminal }) else { throw .missingStart(rule: "start") }
        var rules = parsed.rules.map(\.withoutDirectLeftRecursion)
        var start = "start"
        if !parsed.ignored.isEmpty {
            let place = GrammarRules.Place(line: 1, column: 1)
            let skipped = GrammarNode.repetition(.reference(LarkParser.ignoreName, place: place), minimum: 0, maximum: nil)
            let terminals = Set(rules.filter(\.isTerminal).map(\.name))
            for index in rules.indices where !rules[index].isTerminal {
                rules[index].body = Self.skipping(skipped, before: rules[index].body, terminals: terminals)
            }
            let ignored = parsed.ignored.count == 1 ? parsed.ignored[0] : .alternation(parsed.ignored)
            rules.append(GrammarRules.Rule(name: LarkParser.ignoreName, body: ignored, place: place, isTerminal: true))
            rules.append(GrammarRules.Rule(name: LarkParser.startName, body: .sequence([.reference("start", place: place), skipped]), place: place))
            start = LarkParser.startName
        }
        let compiled = try RuleCompiler(grammar: GrammarRules(rules: rules, start: start), options: options).templates()
        self.init(templates: compiled.templates, options: options, ignoredKeywords: compiled.ignoredKeywords, droppedKeywords: compiled.droppedKeywords)
        guard acceptsSomeText else { throw .acceptsNothing("the start rule can read nothing") }
    }

    /// `node` with `skipped` before each of its terminals.
    private static func skipping(_ skipped: GrammarNode, before node: GrammarNode, terminals: Set<String>) -> GrammarNode {
        switch node {
        case .literal(let scalars) where scalars.isEmpty: node
        case .characters, .literal, .regex, .jsonSchema: .sequence([skipped, node])
        case .reference(let name, _): terminals.contains(name) ? .sequence([skipped, node]) : node
        case .sequence(let items): .sequence(items.map { skipping(skipped, before: $0, terminals: terminals) })
        case .alternation(let items): .alternation(items.map { skipping(skipped, before: $0, terminals: terminals) })
        case .repetition(let inner, let minimum, let maximum):
            .repetition(skipping(skipped, before: inner, terminals: terminals), minimum: minimum, maximum: maximum)
        }
    }
}
