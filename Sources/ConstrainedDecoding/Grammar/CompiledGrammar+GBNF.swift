/// GBNF grammars, llama.cpp's format.
extension CompiledGrammar {
    /// Compiles a GBNF grammar, as llama.cpp's `grammars/README.md` defines it (see
    /// ``GBNFParser`` for the syntax read); the text starts at rule `root`.
    ///
    /// Rules become definitions called where they are referred to, expanded as the text reaches
    /// them: recursion (a rule that refers to itself, directly or through others) is followed as
    /// deep as ``CompileOptions/maximumReferenceDepth`` rule references nest (64 by default; a
    /// text that nests deeper is refused while generating). A rule that refers to itself as the
    /// last thing it reads loops instead, at no depth. Token references (`<[id]>`) are refused.
    ///
    /// - Throws: ``GrammarError`` naming the rule, line and column: a syntax error, a reference
    ///   to a rule that is not defined, a rule defined twice, left recursion
    ///   (``GrammarError/leftRecursion(rule:line:column:)``), no `root` rule; or
    ///   ``GrammarError/tooLarge(_:)`` past the state budget.
    public init(gbnf: String, options: CompileOptions = CompileOptions()) throws(GrammarError) {
        let compiler = try RuleCompiler(grammar: try GBNFParser.parse(gbnf), options: options)
        self.init(templates: try compiler.templates().templates, options: options)
        guard acceptsSomeText else { throw .acceptsNothing("the root rule can read nothing") }
    }
}
