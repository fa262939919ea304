import ConstrainedDecoding
import PartialJSON

extension GenerationSchema {
    /// Reads a schema from a JSON Schema document, keeping property order.
    ///
    /// Documents in the form that Swift types produce (Draft 2020-12: `type`, `properties`,
    /// `required`, `additionalProperties` true or false, `items`, `minItems`, `maxItems`,
    /// `pattern`, `enum`, `const`, bounds, `anyOf`, `$defs` and `$ref` to them, `x-order` and
    /// annotations) are read into that form. Any other document (draft 4, 6, 7 or 2019-09 as its
    /// `$schema` says, and every keyword the decoding engine enforces: `oneOf`, `allOf`, `not`,
    /// `if`/`then`/`else`, `patternProperties`, formats, ...) is kept as written and compiled by
    /// the engine; keywords outside the draft's vocabulary are annotations.
    /// - Throws: ``JSONSchemaError`` naming the keyword the engine cannot enforce and its pointer.
    public init(jsonSchema: JSONValue) throws(JSONSchemaError) {
        do {
            self = try JSONSchemaReader.read(jsonSchema)
        } catch {
            // The engine reads the document itself: the grammar that says whether it can is the
            // one sessions use.
            let grammar: CompiledGrammar
            do {
                grammar = try Self.compiledDocument(jsonSchema, lenient: false)
            } catch let engineError {
                throw JSONSchemaError(engineError)
            }
            self.init(root: SchemaNode(title: jsonSchema["title"]?.stringValue, .document(jsonSchema)))
            compiledDocument = grammar
        }
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
        let grammar: CompiledGrammar
        do {
            grammar = try Self.compiledDocument(jsonSchema, lenient: true)
            // Built now, to refuse what cannot be checked; kept for the checks of answers.
            _ = try SchemaValidatorCache.shared.validator(for: jsonSchema)
        } catch {
            throw JSONSchemaError(error)
        }
        self.init(root: SchemaNode(title: jsonSchema["title"]?.stringValue, .document(jsonSchema)))
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
