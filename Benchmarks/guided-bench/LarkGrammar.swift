import ConstrainedDecoding

/// Compiles a Lark grammar for `guided-bench masks`: the one place the benchmark calls the Lark
/// front end.
func compileLark(_ text: String, options: CompileOptions) throws(GrammarError) -> CompiledGrammar {
    try CompiledGrammar(lark: text, options: options)
}
