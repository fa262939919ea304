import ConstrainedDecoding
import Foundation
import PartialJSON

extension GenerationSchema {
    /// The JSON Schema dialect this library reads and writes.
    public static let jsonSchemaDialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema as standard JSON Schema (Draft 2020-12): `type`, `properties` in declaration
    /// order, `required`, `additionalProperties: false`, `description`, `enum`/`const`,
    /// `minimum`/`maximum`, `minItems`/`maxItems`, `items`, `pattern`, `anyOf`, and named types in
    /// `$defs`, referred to with `$ref`.
    ///
    /// - Throws: ``SchemaError`` or ``GuideError`` when the schema cannot be used as it is.
    public func jsonSchema() throws -> JSONValue {
        try jsonSchema(orderAnnotations: false)
    }

    /// The schema as compact JSON Schema text.
    ///
    /// - Throws: ``SchemaError`` or ``GuideError`` when the schema cannot be used as it is.
    public func jsonSchemaString() throws -> String {
        try jsonSchema().jsonString
    }

    /// The schema as JSON Schema to embed in another document or to present in a prompt: without
    /// its `$schema`.
    func embeddedJSONSchema() throws -> JSONValue {
        let schema = try jsonSchema()
        guard case .object(var object) = schema else { return schema }
        object.members.removeAll { $0.key == "$schema" }
        return .object(object)
    }

    /// The schema as JSON Schema; with `orderAnnotations`, each object also lists its property
    /// names in `x-order`, for encoders that do not keep the order of keys.
    func jsonSchema(orderAnnotations: Bool) throws -> JSONValue {
        if case .document(let document) = root.kind { return orderAnnotations ? SchemaPropertyOrder.annotating(document) : document }
        let (root, definitions) = try SchemaResolver.resolve(self)
        var object = JSONObject([JSONObject.Member(key: "$schema", value: .string(Self.jsonSchemaDialect))])
        if case .object(let rootObject) = root.jsonValue(orderAnnotations: orderAnnotations) {
            object.members += rootObject.members
        } else {
            object.append(key: "not", value: .object([:]))
        }
        if !definitions.isEmpty {
            let defs = JSONObject(definitions.map { JSONObject.Member(key: $0.name, value: $0.node.jsonValue(orderAnnotations: orderAnnotations)) })
            object.append(key: "$defs", value: .object(defs))
        }
        return .object(object)
    }
}

extension SchemaNode {
    /// The JSON Schema of this node; `.generable` nodes must have been resolved.
    func jsonValue(orderAnnotations: Bool) -> JSONValue {
        var object = JSONObject()
        func add(_ key: String, _ value: JSONValue?) {
            if let value { object.append(key: key, value: value) }
        }
        add("title", title.map(JSONValue.string))
        add("description", description.map(JSONValue.string))
        switch kind {
        case .object(let properties, let additionalProperties):
            add("type", .string("object"))
            add("properties", .object(JSONObject(properties.map {
                JSONObject.Member(key: $0.name, value: $0.schema.jsonValue(orderAnnotations: orderAnnotations))
            })))
            add("required", .array(properties.filter { !$0.isOptional }.map { .string($0.name) }))
            add("additionalProperties", additionalProperties.map(JSONValue.bool))
            if orderAnnotations { add("x-order", .array(properties.map { .string($0.name) })) }
        case .string(let constraints):
            add("type", .string("string"))
            add("enum", constraints.choices.map { .array($0.map(JSONValue.string)) })
            add("const", constraints.constant.map(JSONValue.string))
            add("pattern", constraints.pattern.map(JSONValue.string))
        case .integer(let bounds), .number(let bounds):
            if case .integer = kind { add("type", .string("integer")) } else { add("type", .string("number")) }
            add("minimum", bounds.minimum.map(JSONValue.number))
            add("maximum", bounds.maximum.map(JSONValue.number))
            add("exclusiveMinimum", bounds.exclusiveMinimum.map(JSONValue.number))
            add("exclusiveMaximum", bounds.exclusiveMaximum.map(JSONValue.number))
        case .boolean:
            add("type", .string("boolean"))
        case .null:
            add("type", .string("null"))
        case .array(let items, let minItems, let maxItems):
            add("type", .string("array"))
            add("items", items?.jsonValue(orderAnnotations: orderAnnotations))
            add("minItems", minItems.map { .number(JSONNumber($0)) })
            add("maxItems", maxItems.map { .number(JSONNumber($0)) })
        case .anyOf(let choices):
            add("anyOf", .array(choices.map { $0.jsonValue(orderAnnotations: orderAnnotations) }))
        case .enumeration(let values):
            add("enum", .array(values))
        case .constant(let value):
            add("const", value)
        case .reference(let name):
            add("$ref", .string(Self.reference(to: name)))
        case .anything:
            break
        case .document(let document):
            return document
        case .nothing:
            if object.isEmpty { return .bool(false) }
            add("not", .object([:]))
        case .generable(let type, _):
            add("$comment", .string("unresolved schema of \(type)"))
        }
        return .object(object)
    }

    /// The `$ref` text for a definition name; the empty name is the root.
    static func reference(to name: String) -> String {
        guard !name.isEmpty else { return "#" }
        return "#/$defs/" + name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
