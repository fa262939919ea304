/// Regular expressions as grammars.
extension CompiledGrammar {
    /// Compiles a regular expression that the whole text must match (`^` and `$` are implied):
    /// the ECMA-262 subset that JSON Schema `pattern`s are read with (literals, escapes
    /// `\d \w \s \D \W \S \t \n \r \f \v \0 \xHH \uHHHH \u{H…}`, classes with ranges and negation,
    /// `.` for any character but a line terminator, groups, `|`, `* + ? {n} {n,} {n,m}`). The text
    /// is written as UTF-8, as it stands (no JSON quoting).
    ///
    /// - Throws: ``GrammarError/regex(_:)`` for what an automaton cannot enforce exactly
    ///   (lookarounds, backreferences, word boundaries, Unicode properties, inline flags) or a
    ///   syntax error, with the character where it stands; ``GrammarError/acceptsNothing(_:)``
    ///   when no text matches; ``GrammarError/tooLarge(_:)`` past the state budget.
    public init(regex: String, options: CompileOptions = CompileOptions()) throws(GrammarError) {
        let automaton: CodePointAutomaton
        do {
            automaton = try CodePointAutomaton(try RegexParser.wholeMatchLanguage(regex))
        } catch {
            throw .regex(error.reason)
        }
        try self.init(options: options, acceptingNothing: "no text matches the regular expression") { (builder: inout NFABuilder) throws(SchemaError) in
            guard !automaton.isEmpty else { return Fragment(start: try builder.newState(), end: try builder.newState()) }
            return try JSONStringSpelling.fragment(of: automaton, spelling: .raw, in: &builder)
        }
    }
}
