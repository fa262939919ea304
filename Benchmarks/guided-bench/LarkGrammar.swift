import ConstrainedDecoding

/// Compiles a Lark grammar for `guided-bench masks`: the one place the benchmark calls the Lark
/// front end, so that its cases run once `CompiledGrammar(lark:)` is in ConstrainedDecoding.
/// Until then every Lark case is recorded as refused with ``LarkFrontEndMissing``, and the
/// other cases run.
func compileLark(_ text: String, options: CompileOptions) throws -> CompiledGrammar {
    throw LarkFrontEndMissing()
}

/// This build of ConstrainedDecoding has no Lark front end.
struct LarkFrontEndMissing: Error, CustomStringConvertible {
    var description: String {
        "this build cannot compile Lark: CompiledGrammar(lark:) is not in ConstrainedDecoding yet; "
            + "once it is, compileLark (Benchmarks/guided-bench/LarkGrammar.swift) calls it"
    }
}
