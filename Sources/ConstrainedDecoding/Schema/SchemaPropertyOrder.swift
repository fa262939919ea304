import PartialJSON

/// The order of each object schema's properties in a document, where the document's own key
/// order may not survive: `x-order`, an extension that the compiler reads, lists the properties
/// in the order they are generated. A document passed through an encoder that sorts or hashes
/// keys keeps its order by being annotated first and having its annotations applied after.
///
/// Only schemas are visited (the root, and the subschemas that the document's draft defines
/// under `properties`, `items`, `anyOf`, `$defs`, ...), never a `properties` map itself, so a
/// property named `properties` or `x-order` is left alone.
public enum SchemaPropertyOrder {
    /// The document with the `properties` of each schema in the order its `x-order` lists.
    ///
    /// - Throws: ``SchemaError/invalid(keyword:pointer:reason:)`` naming `x-order` and where it
    ///   is when it does not list each property exactly once.
    public static func applying(to document: JSONValue) throws(SchemaError) -> JSONValue {
        try visitingSchemas(of: document) { (schema: inout JSONObject, pointer: String) throws(SchemaError) in
            guard let value = schema["x-order"] else { return }
            guard let index = schema.members.firstIndex(where: { $0.key == "properties" }), case .object(var properties) = schema.members[index].value else {
                return
            }
            let order = value.arrayValue?.compactMap(\.stringValue) ?? []
            guard order.count == value.arrayValue?.count, Set(order) == Set(properties.keys), Set(order).count == order.count else {
                throw .invalid(keyword: "x-order", pointer: pointer + "/x-order", reason: "must list each property once")
            }
            properties.members.sort { (order.firstIndex(of: $0.key) ?? .max) < (order.firstIndex(of: $1.key) ?? .max) }
            schema.members[index].value = .object(properties)
        }
    }

    /// The document with `x-order` beside each schema's `properties` (replacing any there),
    /// listing them in their order.
    public static func annotating(_ document: JSONValue) -> JSONValue {
        (try? visitingSchemas(of: document) { (schema: inout JSONObject, _: String) throws(SchemaError) in
            guard case .object(let properties)? = schema["properties"] else { return }
            let order = JSONValue.array(properties.keys.map(JSONValue.string))
            if let index = schema.members.firstIndex(where: { $0.key == "x-order" }) {
                schema.members[index].value = order
            } else {
                schema.members.append(JSONObject.Member(key: "x-order", value: order))
            }
        }) ?? document
    }

    /// The document with `change` applied to each of its schemas that is an object, parents
    /// before their subschemas, with the JSON pointer of each.
    private static func visitingSchemas(
        of document: JSONValue, _ change: (inout JSONObject, String) throws(SchemaError) -> Void
    ) throws(SchemaError) -> JSONValue {
        let draft = document["$schema"]?.stringValue.flatMap(SchemaDraft.init(metaSchema:)) ?? CompileOptions().defaultDraft
        return try visit(document, at: "", draft: draft, depth: 0, change)
    }

    private static func visit(
        _ schema: JSONValue, at pointer: String, draft: SchemaDraft, depth: Int, _ change: (inout JSONObject, String) throws(SchemaError) -> Void
    ) throws(SchemaError) -> JSONValue {
        guard case .object(var object) = schema, depth < JSONValue.maximumSchemaDepth else { return schema }
        try change(&object, pointer)
        for (keyword, shape) in draft.subschemaKeywords {
            guard let index = object.members.firstIndex(where: { $0.key == keyword }) else { continue }
            let prefix = pointer + "/" + SchemaDocument.escape(keyword)
            let value = object.members[index].value
            switch (shape, value) {
            case (.single, _), (.singleOrList, .object), (.singleOrList, .bool):
                object.members[index].value = try visit(value, at: prefix, draft: draft, depth: depth + 1, change)
            case (.list, .array(var elements)), (.singleOrList, .array(var elements)):
                for position in elements.indices {
                    elements[position] = try visit(elements[position], at: prefix + "/\(position)", draft: draft, depth: depth + 1, change)
                }
                object.members[index].value = .array(elements)
            case (.map, .object(var members)):
                for position in members.members.indices {
                    let member = members.members[position]
                    members.members[position].value = try visit(
                        member.value, at: prefix + "/" + SchemaDocument.escape(member.key), draft: draft, depth: depth + 1, change)
                }
                object.members[index].value = .object(members)
            default:
                continue
            }
        }
        return .object(object)
    }
}
