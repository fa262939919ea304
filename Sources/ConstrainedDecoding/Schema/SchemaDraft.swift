/// A JSON Schema draft, chosen by a document's `$schema` (2020-12 when absent), with the keywords
/// its vocabulary defines. Keywords outside it are annotations in that draft.
public enum SchemaDraft: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case draft4 = 4
    case draft6 = 6
    case draft7 = 7
    case draft2019_09 = 2019
    case draft2020_12 = 2020

    public static func < (lhs: SchemaDraft, rhs: SchemaDraft) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .draft4: "draft-04"
        case .draft6: "draft-06"
        case .draft7: "draft-07"
        case .draft2019_09: "2019-09"
        case .draft2020_12: "2020-12"
        }
    }

    /// The draft a `$schema` URI names (`http` or `https`, with or without the empty fragment),
    /// or `nil` for any other metaschema.
    init?(metaSchema uri: String) {
        var text = Substring(uri)
        if text.hasSuffix("#") { text = text.dropLast() }
        for scheme in ["https://", "http://"] where text.hasPrefix(scheme) { text = text.dropFirst(scheme.count) }
        switch text {
        case "json-schema.org/draft-04/schema": self = .draft4
        case "json-schema.org/draft-06/schema": self = .draft6
        // The unversioned URI named the latest draft while draft-07 was current.
        case "json-schema.org/draft-07/schema", "json-schema.org/schema": self = .draft7
        case "json-schema.org/draft/2019-09/schema": self = .draft2019_09
        case "json-schema.org/draft/2020-12/schema": self = .draft2020_12
        default: return nil
        }
    }

    /// The keyword that gives a schema its URI: `id` in draft 4, `$id` later.
    var identifierKeyword: String { self == .draft4 ? "id" : "$id" }

    /// The keywords that hold subschemas, as (keyword, how): one schema, an array of them, or an
    /// object whose values are schemas. Used to find identifiers and anchors.
    var subschemaKeywords: [(keyword: String, shape: SubschemaShape)] {
        var result: [(String, SubschemaShape)] = [
            ("properties", .map), ("patternProperties", .map), ("definitions", .map), ("additionalProperties", .single),
            ("not", .single), ("allOf", .list), ("anyOf", .list), ("oneOf", .list), ("items", .singleOrList),
        ]
        if self < .draft2020_12 { result.append(("additionalItems", .single)) }
        if self <= .draft7 { result.append(("dependencies", .map)) }
        if self >= .draft6 { result += [("contains", .single), ("propertyNames", .single)] }
        if self >= .draft7 { result += [("if", .single), ("then", .single), ("else", .single)] }
        if self >= .draft2019_09 {
            result += [
                ("$defs", .map), ("dependentSchemas", .map), ("unevaluatedProperties", .single), ("unevaluatedItems", .single),
            ]
        }
        if self >= .draft2020_12 { result.append(("prefixItems", .list)) }
        return result
    }

    enum SubschemaShape {
        case single, list, map, singleOrList
    }

    /// Every keyword the draft's vocabularies define (annotations included).
    var keywords: Set<String> {
        var result: Set<String> = [
            "$ref", "$schema", "title", "description", "default", "type", "enum", "properties", "required",
            "additionalProperties", "patternProperties", "definitions", "items", "minItems", "maxItems", "uniqueItems",
            "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
            "multipleOf", "minProperties", "maxProperties", "allOf", "anyOf", "oneOf", "not", identifierKeyword,
        ]
        if self < .draft2020_12 { result.insert("additionalItems") }
        if self <= .draft7 { result.insert("dependencies") }
        if self >= .draft6 { result.formUnion(["const", "contains", "propertyNames", "examples"]) }
        if self >= .draft7 {
            result.formUnion(["if", "then", "else", "$comment", "readOnly", "writeOnly", "contentMediaType", "contentEncoding"])
        }
        if self >= .draft2019_09 {
            result.formUnion([
                "$anchor", "$defs", "$vocabulary", "dependentRequired", "dependentSchemas", "minContains", "maxContains",
                "unevaluatedProperties", "unevaluatedItems", "deprecated", "contentSchema",
            ])
        }
        if self == .draft2019_09 { result.formUnion(["$recursiveRef", "$recursiveAnchor"]) }
        if self == .draft2020_12 { result.formUnion(["prefixItems", "$dynamicRef", "$dynamicAnchor"]) }
        return result
    }
}
