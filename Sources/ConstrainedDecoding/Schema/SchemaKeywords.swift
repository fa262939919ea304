/// The keywords of JSON Schema, as this compiler treats them once a schema has been brought to
/// the 2020-12 form (``SchemaCompiler/normalized(_:at:)``).
enum SchemaKeywords {
    /// Marks a schema object that is already in the 2020-12 form.
    static let normalizedMarker = "$guided:normalized"
    /// Internal keywords that complements add: string values excluded (`$guided:notValues`),
    /// patterns a string must not match (`$guided:notPatterns`), member names an object must not
    /// have (`$guided:forbidden`).
    static let notValues = "$guided:notValues"
    static let notPatterns = "$guided:notPatterns"
    static let forbiddenNames = "$guided:forbidden"
    /// Sets of member rules of which an object must break at least one each
    /// (`$guided:violating`): `[{"properties": {name: rule}, "others": rule}]`, where a rule is
    /// `{"kept": schema, "broken": [schemas]}` and the broken schemas are the complement of the
    /// kept one.
    static let violating = "$guided:violating"
    /// A number must not be an integer (`$guided:notInteger`).
    static let notInteger = "$guided:notInteger"
    static let `internal`: Set<String> = [notValues, notPatterns, forbiddenNames, violating, notInteger]

    /// Keywords that only annotate or identify; accepted anywhere, they constrain nothing.
    static let annotations: Set<String> = [
        "title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly",
        "contentMediaType", "contentEncoding", "contentSchema", "$schema", "$defs", "definitions", "x-order", "$id", "id",
        "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", normalizedMarker,
    ]

    /// Keywords outside the standard vocabularies that this compiler reads: `x-order` lists the
    /// order in which properties are generated.
    static let extensions: Set<String> = ["x-order"]

    /// Keywords that constrain each type.
    static let byType: [String: Set<String>] = [
        "object": [
            "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties",
            "maxProperties", forbiddenNames, violating,
        ],
        "array": ["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains"],
        "string": ["minLength", "maxLength", "pattern", "format", notValues, notPatterns],
        "number": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", notInteger],
        "integer": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
        "boolean": [],
        "null": [],
    ]

    /// Keywords that combine or select schemas.
    static let applicators: Set<String> = [
        "type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "not", "if", "then", "else", "dependentRequired",
        "dependentSchemas",
    ]

    /// Every keyword the compiler enforces or reads as an annotation; any other keyword of the
    /// draft's vocabulary is refused (or dropped, when lenient).
    static let known: Set<String> = annotations.union(applicators).union(byType.values.joined())

    /// The JSON types, `integer` aside (numbers cover it).
    static let types = ["null", "boolean", "number", "string", "array", "object"]

    /// Why a keyword of the vocabulary is not enforced, for the error.
    static func reason(for keyword: String) -> String {
        switch keyword {
        case "unevaluatedProperties", "unevaluatedItems":
            "the evaluated set is not known statically here"
        case "contains", "minContains", "maxContains":
            "counting matching elements is not enforced while generating"
        case "$dynamicRef", "$recursiveRef":
            "the dynamic scope cannot be resolved statically here"
        default:
            "cannot be enforced while generating"
        }
    }
}
