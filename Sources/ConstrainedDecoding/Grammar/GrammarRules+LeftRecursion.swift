/// Direct left recursion, written as repetition.
extension GrammarRules.Rule {
    /// The rule with its direct left recursion written as repetition: `a: a x | a y | b | c`
    /// reads as `a: (b | c) (x | y)*`, the same language, which an automaton can follow. A rule
    /// whose every alternative starts with itself is left as it is, to be refused.
    var withoutDirectLeftRecursion: GrammarRules.Rule {
        guard !isTerminal else { return self }
        let alternatives: [GrammarNode]
        if case .alternation(let items) = body { alternatives = items } else { alternatives = [body] }
        var bases: [GrammarNode] = []
        var tails: [GrammarNode] = []
        var recursive = false
        for alternative in alternatives {
            switch alternative {
            case .reference(let target, _) where target == name:
                // `a: a | …`: reads nothing more than the other alternatives do.
                recursive = true
            case .sequence(let items):
                guard case .reference(let target, _)? = items.first, target == name else {
                    bases.append(alternative)
                    continue
                }
                recursive = true
                tails.append(items.count == 2 ? items[1] : .sequence(Array(items.dropFirst())))
            default:
                bases.append(alternative)
            }
        }
        guard recursive, !bases.isEmpty else { return self }
        var rule = self
        let base = bases.count == 1 ? bases[0] : .alternation(bases)
        rule.body = tails.isEmpty ? base : .sequence([base, .repetition(tails.count == 1 ? tails[0] : .alternation(tails), minimum: 0, maximum: nil)])
        return rule
    }
}
