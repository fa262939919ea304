/// A JSON Schema compiled into a grammar over bytes, ready to drive ``GrammarMatcher``s.
///
/// Compile once and create a matcher per generation; a grammar is immutable and can be shared.
public struct CompiledGrammar: Sendable {
    let templates: [GrammarTemplate]
    /// The templates in one flat NFA, and their byte classes, shared by every matcher's automaton.
    let pool: TemplatePool
    let classes: ByteClasses
    /// The options it was compiled with.
    public let options: CompileOptions
    /// With ``CompileOptions/isLenient``, the keywords that were ignored, as `keyword at pointer`.
    public let ignoredKeywords: [String]

    /// Compiles a JSON Schema (Draft 2020-12) given as JSON text.
    ///
    /// - Throws: ``SchemaError`` naming the keyword and its JSON pointer for anything that
    ///   cannot be enforced exactly, or when the schema exceeds the compile budget.
    public init(jsonSchema: String, options: CompileOptions = CompileOptions()) throws(SchemaError) {
        let document = try SchemaValueParser.parse(jsonSchema)
        var compiler = SchemaCompiler(document: document, options: options)
        templates = try compiler.compileAll()
        pool = TemplatePool(templates: templates)
        classes = ByteClasses(templates: templates)
        self.options = options
        ignoredKeywords = compiler.ignored
        // A root that only leads into definitions that accept nothing accepts nothing.
        guard LazyDFA(pool: pool, classes: classes, maximumCallDepth: options.maximumReferenceDepth).start >= 0 else {
            throw .invalid(keyword: "", pointer: "", reason: "the schema accepts no value")
        }
    }

    /// The number of NFA states in the templates, a measure of the grammar's size.
    public var stateCount: Int { templates.reduce(0) { $0 + $1.nfa.stateCount } }
}
