import PartialJSON

extension GenerationSchema {
    /// Reads a schema from a JSON Schema document (Draft 2020-12), keeping property order.
    ///
    /// Supported: `type` (one of object, array, string, integer, number, boolean, null),
    /// `properties`, `required`, `additionalProperties` (true or false), `items`, `minItems`,
    /// `maxItems`, `pattern`, `enum`, `const`, `minimum`, `maximum`, `exclusiveMinimum`,
    /// `exclusiveMaximum`, `anyOf`, `$defs` (at the root), `$ref` (`#` and `#/$defs/NAME`),
    /// `not: {}`, `x-order`, `$schema` (2020-12 only), and the annotations `title`, `description`,
    /// `$comment`, `examples`, `default`, `deprecated`, `readOnly`, `writeOnly`.
    /// - Throws: ``JSONSchemaError`` naming the first keyword it cannot enforce and its pointer.
    public init(jsonSchema: JSONValue) throws(JSONSchemaError) {
        self = try JSONSchemaReader.read(jsonSchema)
    }

    /// Reads a schema from JSON Schema text.
    ///
    /// - Throws: ``JSONParseError`` when the text is not JSON, ``JSONSchemaError`` when the schema
    ///   uses what this library cannot enforce.
    public init(jsonSchema text: String) throws {
        self = try JSONSchemaReader.read(try JSONValue(parsing: text))
    }
}

extension GenerationSchema: Codable {
    /// Decodes a schema encoded as JSON Schema; `x-order` restores property order when the
    /// decoder does not keep the order of keys.
    public init(from decoder: any Decoder) throws {
        self = try JSONSchemaReader.read(try JSONValue(from: decoder))
    }

    /// Encodes the schema as JSON Schema, with `x-order` beside each object's properties so that
    /// their order survives encoders that sort or hash keys.
    public func encode(to encoder: any Encoder) throws {
        try jsonSchema(orderAnnotations: true).encode(to: encoder)
    }
}
