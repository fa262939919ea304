/// Brings one schema object of any draft to the 2020-12 form the compiler works on.
extension SchemaCompiler {
    /// The schema with the keywords of its draft rewritten in 2020-12 terms: `items` arrays and
    /// `additionalItems` become `prefixItems` and `items`; `dependencies` becomes
    /// `dependentRequired` and `dependentSchemas`; draft 4's Boolean `exclusiveMinimum` and
    /// `exclusiveMaximum` become numbers; before 2019-09 the siblings of `$ref` are ignored; a
    /// `$recursiveRef` or `$dynamicRef` that can only name one schema becomes a `$ref`. Keywords
    /// outside the draft's vocabulary are annotations: dropped, and listed in ``annotations``.
    /// Only this object changes; its subschemas are brought over when they are compiled.
    mutating func normalized(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> SchemaValue {
        guard case .object(let members) = schema, schema[SchemaKeywords.normalizedMarker] == nil else { return schema }
        let draft = document.draft
        let referenceOnly = draft <= .draft7 && schema["$ref"] != nil
        var result: [(key: String, value: SchemaValue)] = []
        for (key, value) in members.map({ ($0.key, $0.value) }) {
            // Before 2019-09, the siblings of `$ref` are ignored (an `$id` beside it too).
            if referenceOnly && key != "$ref" { continue }
            if vocabulary.contains(key) || SchemaKeywords.extensions.contains(key) || SchemaKeywords.internal.contains(key) {
                result.append((key, value))
            } else {
                noteAnnotation(key, at: pointer)
            }
        }
        func take(_ key: String) -> SchemaValue? {
            guard let index = result.firstIndex(where: { $0.key == key }) else { return nil }
            return result.remove(at: index).value
        }
        if draft == .draft4 {
            for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
                guard case .bool(let flag)? = result.first(where: { $0.key == exclusive })?.value else { continue }
                _ = take(exclusive)
                if flag, let value = take(bound) { result.append((exclusive, value)) }
            }
        }
        if draft < .draft2020_12 {
            let additional = take("additionalItems")
            if case .array? = result.first(where: { $0.key == "items" })?.value, let prefix = take("items") {
                result.append(("prefixItems", prefix))
                if let additional { result.append(("items", additional)) }
            }
        }
        if draft <= .draft7, let dependencies = take("dependencies") {
            guard case .object(let entries) = dependencies else {
                throw invalid("dependencies", at: pointer, "must be an object")
            }
            var required: [(key: String, value: SchemaValue)] = []
            var schemas: [(key: String, value: SchemaValue)] = []
            for (name, value) in entries.map({ ($0.key, $0.value) }) {
                if case .array = value { required.append((name, value)) } else { schemas.append((name, value)) }
            }
            if !required.isEmpty { result.append(("dependentRequired", .members(required))) }
            if !schemas.isEmpty { result.append(("dependentSchemas", .members(schemas))) }
        }
        for keyword in ["$recursiveRef", "$dynamicRef"] {
            guard let value = take(keyword) else { continue }
            guard case .string(let reference) = value else { throw invalid(keyword, at: pointer, "must be a string") }
            guard result.contains(where: { $0.key == "$ref" }) == false, isStatic(keyword, reference) else {
                // Not even dropped when lenient: the final check could not follow it either.
                throw unsupported(keyword, at: pointer, SchemaKeywords.reason(for: keyword))
            }
            result.append(("$ref", value))
        }
        result.append((SchemaKeywords.normalizedMarker, .bool(true)))
        return .members(result)
    }

    /// Whether a dynamic reference can only lead where a plain `$ref` leads: no schema declares
    /// the anchor it looks for, or only one does.
    private func isStatic(_ keyword: String, _ reference: String) -> Bool {
        let name = keyword == "$recursiveRef" ? "" : URIReference.splitFragment(reference).1
        return (document.dynamicAnchors[name]?.count ?? 0) <= 1
    }

    /// Records a keyword read as an annotation.
    mutating func noteAnnotation(_ keyword: String, at pointer: String) {
        let entry = "\(keyword) at \(pointer.isEmpty ? "/" : pointer)"
        if annotationSet.insert(entry).inserted { annotations.append(entry) }
    }
}
