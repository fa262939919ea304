import PartialJSON

/// A grammar over bytes, ready to drive ``GrammarMatcher``s: a JSON Schema compiled, or one of
/// the other front ends (``init(regex:options:)``, ``init(choices:options:)``,
/// ``init(gbnf:options:)``), all compiled to the same automaton.
///
/// Compile once and create a matcher per generation; a grammar can be shared between threads.
/// Its matchers pass on the automaton states and token masks they build: the grammar gets faster
/// to follow with use.
public struct CompiledGrammar: Sendable {
    let templates: [GrammarTemplate]
    /// The templates in one flat NFA, and their byte classes, shared by every matcher's automaton.
    let pool: TemplatePool
    let classes: ByteClasses
    /// The automata its finished matchers built, for its next matchers.
    let shelf = AutomatonShelf()
    /// The options it was compiled with.
    public let options: CompileOptions
    /// The draft the document was read as: the one its `$schema` names, else 2020-12 (for a
    /// grammar that is not a JSON Schema, the options' ``CompileOptions/defaultDraft``).
    public let draft: SchemaDraft
    /// The keywords read as annotations because the draft's vocabulary does not define them
    /// (`x-kubernetes-group`, `readonly`, a misspelt `minlength`), and `format` values that are
    /// not asserted, as `keyword at pointer`. JSON Schema says to ignore unknown keywords.
    public let ignoredKeywords: [String]
    /// With ``CompileOptions/isLenient``, the keywords that narrow the valid set but could not be
    /// enforced while generating, and were dropped, as `keyword at pointer`. The final value must
    /// then be checked against the whole schema (``SchemaValidator``).
    public let droppedKeywords: [String]

    /// Compiles a JSON Schema given as JSON text: draft 4, 6, 7, 2019-09 or 2020-12, as its
    /// `$schema` says (2020-12 when it has none).
    ///
    /// - Throws: ``SchemaError`` naming the keyword and its JSON pointer for anything that
    ///   cannot be enforced exactly (unless lenient), or when the schema exceeds the compile budget.
    public init(jsonSchema: String, options: CompileOptions = CompileOptions()) throws(SchemaError) {
        try self.init(document: try SchemaValue.schemaDocument(jsonSchema), options: options)
    }

    /// Compiles a JSON Schema given as a parsed value (see ``init(jsonSchema:options:)-(String,_)``).
    ///
    /// - Throws: ``SchemaError`` as the text form does; a value nested deeper than a document's
    ///   text may be is refused as invalid JSON.
    public init(jsonSchema: JSONValue, options: CompileOptions = CompileOptions()) throws(SchemaError) {
        try self.init(document: try SchemaValue.schemaDocument(jsonSchema), options: options)
    }

    private init(document: JSONValue, options: CompileOptions) throws(SchemaError) {
        try SchemaCost.check(document, budget: options.stateBudget)
        var compiler = SchemaCompiler(document: document, options: options)
        self.init(
            templates: try compiler.compileAll(), options: options, draft: compiler.document.draft,
            ignoredKeywords: compiler.annotations, droppedKeywords: compiler.dropped)
        // A root that only leads into definitions that accept nothing accepts nothing.
        guard acceptsSomeText else {
            throw .acceptsNoValue
        }
    }

    /// A grammar of `templates`, the root's first, then those it calls.
    init(
        templates: [GrammarTemplate], options: CompileOptions, draft: SchemaDraft? = nil, ignoredKeywords: [String] = [],
        droppedKeywords: [String] = []
    ) {
        self.templates = templates
        pool = TemplatePool(templates: templates)
        classes = ByteClasses(templates: templates)
        self.options = options
        self.draft = draft ?? options.defaultDraft
        self.ignoredKeywords = ignoredKeywords
        self.droppedKeywords = droppedKeywords
    }

    /// A grammar of one template that `build` makes within the state budget; refused when it
    /// accepts no text, as `what` says.
    init(options: CompileOptions, acceptingNothing what: String, building build: (inout NFABuilder) throws(SchemaError) -> Fragment) throws(GrammarError) {
        var builder = NFABuilder(stateBudget: options.stateBudget)
        let fragment: Fragment
        do {
            fragment = try build(&builder)
        } catch {
            throw GrammarError(building: error)
        }
        self.init(templates: [GrammarTemplate(nfa: CompactNFA(builder.nfa), start: fragment.start, end: fragment.end)], options: options)
        guard acceptsSomeText else { throw .acceptsNothing(what) }
    }

    /// Whether some text can start: the root does not only lead into definitions that accept
    /// nothing.
    var acceptsSomeText: Bool {
        LazyDFA(pool: pool, classes: classes, maximumCallDepth: options.maximumReferenceDepth, plainTextLimit: 0).start >= 0
    }

    /// The number of NFA states in the templates, a measure of the grammar's size.
    public var stateCount: Int { templates.reduce(0) { $0 + $1.nfa.stateCount } }
}
