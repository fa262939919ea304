import ConstrainedDecoding
import PartialJSON

extension GenerationSchema {
    /// Reads a schema from a JSON Schema document, keeping property order.
    ///
    /// The document is kept as written, with the properties of each schema in the order its
    /// `x-order` lists where it has one, and compiled by the decoding engine, which reads it:
    /// any draft (4, 6, 7, 2019-09 or 2020-12, as its `$schema` says; 2020-12 without one) and
    /// every keyword the engine enforces (`oneOf`, `allOf`, `not`, `if`/`then`/`else`,
    /// `patternProperties`, formats, ...); keywords outside the draft's vocabulary are
    /// annotations. The grammar that says whether the engine can enforce the document is the one
    /// sessions use.
    /// - Throws: ``JSONSchemaError`` naming the keyword the engine cannot enforce and its pointer.
    public init(jsonSchema: JSONValue) throws(JSONSchemaError) {
        let document: JSONValue
        let grammar: CompiledGrammar?
        do {
            document = try SchemaPropertyOrder.applying(to: jsonSchema)
            do {
                grammar = try SchemaCache.shared.grammar(forDocument: document, lenient: false)
            } catch let error where error == .acceptsNoValue {
                // A schema of no value (`Never`'s) is read and kept; generating from it fails.
                grammar = nil
            }
        } catch {
            throw JSONSchemaError(error)
        }
        self.init(root: SchemaNode(title: document["title"]?.stringValue, .document(document)))
        compiledDocument = grammar
    }

    /// Reads a JSON Schema document leniently: keywords that narrow the valid set but cannot be
    /// enforced while generating (`uniqueItems` over objects, `contains`, `unevaluatedProperties`,
    /// ...) are left out of the grammar, and the final value is checked against the whole
    /// document, so that an output that breaks one of them fails with
    /// ``LanguageModelSession/GenerationError/decodingFailure(_:)`` naming it, never returned as valid.
    /// - Throws: ``JSONSchemaError`` for what even lenient reading cannot take (a reference to
    ///   another document, an invalid keyword value).
    public init(jsonSchema: JSONValue, lenient: Bool) throws(JSONSchemaError) {
        guard lenient else {
            try self.init(jsonSchema: jsonSchema)
            return
        }
        let document: JSONValue
        let grammar: CompiledGrammar
        do {
            document = try SchemaPropertyOrder.applying(to: jsonSchema)
            grammar = try SchemaCache.shared.grammar(forDocument: document, lenient: true)
            // Built now, to refuse what cannot be checked; kept for the checks of answers.
            _ = try SchemaCache.shared.validator(for: document)
        } catch {
            throw JSONSchemaError(error)
        }
        self.init(root: SchemaNode(title: document["title"]?.stringValue, .document(document)))
        isLenient = true
        compiledDocument = grammar
    }

    /// A document compiled in the layout local models write answers in, or compact when that
    /// layout would take more states than the budget allows (as sessions then write it): whether
    /// the engine can enforce a document is known only by compiling it, and the grammar that
    /// tells is the one the answers are generated with.
    static func compiledDocument(_ document: JSONValue, lenient: Bool) throws(ConstrainedDecoding.SchemaError) -> CompiledGrammar {
        do {
            return try CompiledGrammar(jsonSchema: document, options: CompileOptions(whitespace: JSONLayout.localAnswers.whitespace, isLenient: lenient))
        } catch {
            guard case .tooLarge = error else { throw error }
            return try CompiledGrammar(jsonSchema: document, options: CompileOptions(isLenient: lenient))
        }
    }

    /// Reads JSON Schema text, leniently when `lenient` (see ``init(jsonSchema:lenient:)-(JSONValue,_)``).
    ///
    /// - Throws: ``JSONParseError`` when the text is not JSON, ``JSONSchemaError`` when the schema
    ///   cannot be used.
    public init(jsonSchema text: String, lenient: Bool) throws {
        try self.init(jsonSchema: try JSONValue(parsing: text), lenient: lenient)
    }

    /// Reads a schema from JSON Schema text.
    ///
    /// - Throws: ``JSONParseError`` when the text is not JSON, ``JSONSchemaError`` when the schema
    ///   uses what this library cannot enforce.
    public init(jsonSchema text: String) throws {
        try self.init(jsonSchema: try JSONValue(parsing: text))
    }
}

extension GenerationSchema: Codable {
    /// Decodes a schema encoded as JSON Schema; `x-order` restores property order when the
    /// decoder does not keep the order of keys.
    public init(from decoder: any Decoder) throws {
        try self.init(jsonSchema: try JSONValue(from: decoder))
    }

    /// Encodes the schema as JSON Schema, with `x-order` beside each object's properties so that
    /// their order survives encoders that sort or hash keys.
    public func encode(to encoder: any Encoder) throws {
        try jsonSchema(orderAnnotations: true).encode(to: encoder)
    }
}
