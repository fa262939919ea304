/// Lists of choices as grammars.
extension CompiledGrammar {
    /// Compiles a list of choices: the text is one of `choices`, exactly, written as UTF-8. The
    /// choices share their common beginnings (a trie), so that what they have in common is
    /// forced (``GrammarMatcher/forcedBytes()``) and a long list stays small.
    ///
    /// - Throws: ``GrammarError/acceptsNothing(_:)`` when the list is empty;
    ///   ``GrammarError/tooLarge(_:)`` when the choices need more states than the budget.
    public init(choices: [String], options: CompileOptions = CompileOptions()) throws(GrammarError) {
        try self.init(options: options, acceptingNothing: "there are no choices") { (builder: inout NFABuilder) throws(SchemaError) in
            let root = try builder.newState()
            let end = try builder.newState()
            var children: [Int32: [UInt8: Int32]] = [:]
            var ended: Set<Int32> = []
            for choice in choices {
                var node = root
                for byte in choice.utf8 {
                    if let child = children[node]?[byte] {
                        node = child
                    } else {
                        let child = try builder.newState()
                        builder.transition(node, byte, byte, child)
                        children[node, default: [:]][byte] = child
                        node = child
                    }
                }
                if ended.insert(node).inserted { builder.epsilon(node, end) }
            }
            return Fragment(start: root, end: end)
        }
    }
}
