/// How a JSON Schema is compiled into a grammar.
public struct CompileOptions: Sendable, Equatable {
    /// Where whitespace may appear between the tokens of the JSON text.
    public enum Whitespace: Sendable, Equatable {
        /// None: compact JSON, one spelling per value. The default.
        case compact
        /// Up to `maximum` whitespace characters wherever JSON allows whitespace between tokens.
        case flexible(maximum: Int)
        /// What llama.cpp's JSON Schema grammars allow, so that a model chooses its own layout as
        /// it does under llama.cpp: after an opening bracket, before a closing one, around a
        /// colon and after a comma, nothing, one space, or one or two line breaks followed by up
        /// to 20 spaces or tabs; none before a comma or around the document.
        case llamaCpp
        /// One spelling per value, laid out as people and the pages models learn from write
        /// JSON: each member and element on its own line, indented by `indent` spaces per level
        /// (members nested deeper than 9 levels are indented as the ninth), a space after each
        /// colon, and empty arrays and objects as `[]` and `{}`.
        case indented(Int)
    }

    /// Whether objects may hold properties their schema does not name.
    public enum ExtraProperties: Sendable, Equatable {
        /// Only the properties the schema names, unless `additionalProperties` allows more, or
        /// the schema names none at all (no `properties`, no `patternProperties`: any object).
        /// The default: a model is never invited to invent properties.
        case forbid
        /// As the JSON Schema standard says: when `additionalProperties` is absent, any other
        /// property is allowed (after the named ones).
        case allow
    }

    public var whitespace: Whitespace
    public var extraProperties: ExtraProperties
    /// Whether `format` constrains strings (date, time, date-time, duration, email, hostname,
    /// ipv4, ipv6, uri, uri-reference, iri, iri-reference, uri-template, uuid, json-pointer,
    /// relative-json-pointer) or is only an annotation, as JSON Schema 2019-09 and later have it
    /// by default. Other formats are always annotations.
    public var assertsFormats: Bool
    /// Whether keywords that cannot be enforced are dropped (and listed in
    /// ``CompiledGrammar/droppedKeywords``) instead of refused; the final value must then be
    /// checked against the whole schema.
    public var isLenient: Bool
    /// The draft of documents whose `$schema` names none (or one this compiler does not know).
    public var defaultDraft: SchemaDraft
    /// The most automaton states a schema may compile to.
    public var stateBudget: Int
    /// How deeply references (`$ref`) may nest in a document, for recursive schemas.
    public var maximumReferenceDepth: Int

    public init(
        whitespace: Whitespace = .compact, extraProperties: ExtraProperties = .forbid, assertsFormats: Bool = true,
        isLenient: Bool = false, defaultDraft: SchemaDraft = .draft2020_12, stateBudget: Int = 400_000,
        maximumReferenceDepth: Int = 64
    ) {
        self.defaultDraft = defaultDraft
        self.whitespace = whitespace
        self.extraProperties = extraProperties
        self.assertsFormats = assertsFormats
        self.isLenient = isLenient
        self.stateBudget = stateBudget
        self.maximumReferenceDepth = maximumReferenceDepth
    }
}
