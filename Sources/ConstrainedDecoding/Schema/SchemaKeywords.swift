/// The keywords of JSON Schema 2020-12, as this compiler treats them.
enum SchemaKeywords {
    /// Keywords that only annotate; accepted anywhere and ignored.
    static let annotations: Set<String> = [
        "title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly",
        "contentMediaType", "contentEncoding", "contentSchema", "$schema", "$defs", "definitions", "x-order",
    ]

    /// Keywords that constrain each type.
    static let byType: [String: Set<String>] = [
        "object": ["properties", "required", "additionalProperties"],
        "array": ["items", "prefixItems", "minItems", "maxItems", "uniqueItems"],
        "string": ["minLength", "maxLength", "pattern", "format"],
        "number": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
        "integer": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
        "boolean": [],
        "null": [],
    ]

    /// Keywords that combine or select schemas.
    static let applicators: Set<String> = ["type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "not"]

    /// Every keyword the compiler understands.
    static let known: Set<String> = annotations.union(applicators).union(byType.values.joined())

    /// The JSON types, `integer` aside (numbers cover it).
    static let types = ["null", "boolean", "number", "string", "array", "object"]

    /// What a keyword unknown to the compiler is, for the error.
    static func reason(for keyword: String) -> String {
        switch keyword {
        case "if", "then", "else", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
            "contains", "minContains", "maxContains", "propertyNames", "patternProperties", "minProperties", "maxProperties",
            "$dynamicRef", "$dynamicAnchor", "$anchor", "$recursiveRef", "$recursiveAnchor", "$id", "$vocabulary", "dependencies":
            "cannot be enforced while generating in schema order"
        default:
            "unknown to this compiler"
        }
    }
}
