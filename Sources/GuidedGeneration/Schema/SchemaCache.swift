import ConstrainedDecoding
import PartialJSON
import Synchronization

/// What the engine makes of a JSON Schema document, once per document value: the grammar that
/// reading the document compiles (``GenerationSchema/init(jsonSchema:)``, in the layout of local
/// answers) and the validator that final answers are checked with. Every session, turn and
/// surface (a local model, a served one, each request to `guided serve`) that reads or checks
/// against an equal document shares what was built for it.
final class SchemaCache: Sendable {
    /// The cache every schema is read and checked with.
    static let shared = SchemaCache()
    /// The most entries of each kind kept; past it that kind starts over, as a server seeing
    /// ever new schemas would otherwise grow without end.
    static let limit = 64

    private struct GrammarKey: Hashable {
        let document: JSONValue
        let isLenient: Bool
    }

    private struct State {
        var validators: [JSONValue: SchemaValidator] = [:]
        var grammars: [GrammarKey: CompiledGrammar] = [:]
        var validatorsBuilt = 0
        var grammarsCompiled = 0
    }

    private let state = Mutex(State())

    /// The validator of `document`, built on first use.
    func validator(for document: JSONValue) throws(SchemaError) -> SchemaValidator {
        if let validator = state.withLock({ $0.validators[document] }) { return validator }
        let validator = try SchemaValidator(jsonSchema: document)
        state.withLock { state in
            if state.validators.count >= Self.limit { state.validators.removeAll() }
            state.validators[document] = validator
            state.validatorsBuilt += 1
        }
        return validator
    }

    /// The grammar of `document` that reading it compiles (see
    /// ``GenerationSchema/compiledDocument(_:lenient:)``), compiled on first use.
    func grammar(forDocument document: JSONValue, lenient: Bool) throws(SchemaError) -> CompiledGrammar {
        let key = GrammarKey(document: document, isLenient: lenient)
        if let grammar = state.withLock({ $0.grammars[key] }) { return grammar }
        let grammar = try GenerationSchema.compiledDocument(document, lenient: lenient)
        state.withLock { state in
            if state.grammars.count >= Self.limit { state.grammars.removeAll() }
            state.grammars[key] = grammar
            state.grammarsCompiled += 1
        }
        return grammar
    }

    /// How many validators this cache has built.
    var validatorsBuilt: Int { state.withLock { $0.validatorsBuilt } }
    /// How many grammars this cache has compiled.
    var grammarsCompiled: Int { state.withLock { $0.grammarsCompiled } }
}
