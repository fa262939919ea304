/// Merges the schemas of an `allOf` (or a choice and its siblings) into one, where that can be
/// done exactly: keywords that only one schema has are kept; the same keyword with the same value
/// is kept once; `properties` (distinct names) and `required` are united; `type`s intersected;
/// bounds tightened. Anything else is refused, naming `allOf`.
enum SchemaMerger {
    static func merge(_ schemas: [SchemaValue], at pointer: String) throws(SchemaError) -> SchemaValue {
        var merged: [(key: String, value: SchemaValue)] = []
        func refuse(_ reason: String) -> SchemaError {
            .unsupported(keyword: "allOf", pointer: pointer + "/allOf", reason: reason)
        }
        // `additionalProperties` and `items` look only at the `properties` and `prefixItems` of
        // their own schema; merging across schemas would change what they mean.
        for (dependent, sources) in [("additionalProperties", ["properties"]), ("items", ["prefixItems"])] {
            let owners = schemas.filter { $0[dependent] != nil }
            let others = schemas.filter { schema in sources.contains { schema[$0] != nil } && schema[dependent] == nil }
            if !owners.isEmpty && !others.isEmpty { throw refuse("'\(dependent)' beside \(sources[0]) of another schema") }
        }
        for schema in schemas {
            switch schema {
            case .bool(true): continue
            case .bool(false): return .bool(false)
            case .object(let members):
                if members.contains(where: { $0.key == "allOf" }) {
                    guard case .array(let nested)? = schema["allOf"] else { throw refuse("a nested allOf must be an array") }
                    let flattened = try merge([.object(members.filter { $0.key != "allOf" })] + nested, at: pointer)
                    merged = try combine(merged, flattened.objectMembers ?? [], refuse: refuse)
                } else {
                    merged = try combine(merged, members, refuse: refuse)
                }
            default:
                throw refuse("its schemas must be objects or Booleans")
            }
        }
        return .object(merged)
    }

    private static func combine(
        _ existing: [(key: String, value: SchemaValue)], _ added: [(key: String, value: SchemaValue)], refuse: (String) -> SchemaError
    ) throws(SchemaError) -> [(key: String, value: SchemaValue)] {
        var result = existing
        for (key, value) in added {
            guard let index = result.firstIndex(where: { $0.key == key }) else {
                result.append((key, value))
                continue
            }
            let current = result[index].value
            if current == value || SchemaKeywords.annotations.contains(key) { continue }
            switch key {
            case "properties":
                guard let left = current.objectMembers, let right = value.objectMembers,
                    Set(left.map(\.key)).isDisjoint(with: right.map(\.key))
                else { throw refuse("the same property is constrained twice") }
                result[index].value = .object(left + right)
            case "required":
                let names = (current.arrayValue ?? []) + (value.arrayValue ?? []).filter { !(current.arrayValue ?? []).contains($0) }
                result[index].value = .array(names)
            case "type":
                let left = typeNames(current)
                let right = typeNames(value)
                let common = left.filter { right.contains($0) || ($0 == "integer" && right.contains("number")) }
                    + right.filter { $0 == "integer" && left.contains("number") && !left.contains("integer") }
                result[index].value = .array(common.map(SchemaValue.string))
            case "minimum", "exclusiveMinimum", "minLength", "minItems":
                result[index].value = extreme(current, value, largest: true)
            case "maximum", "exclusiveMaximum", "maxLength", "maxItems":
                result[index].value = extreme(current, value, largest: false)
            default:
                throw refuse("'\(key)' is given different values")
            }
        }
        return result
    }

    private static func typeNames(_ value: SchemaValue) -> [String] {
        if let name = value.stringValue { return [name] }
        return value.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private static func extreme(_ a: SchemaValue, _ b: SchemaValue, largest: Bool) -> SchemaValue {
        guard case .number(let left) = a, case .number(let right) = b, let x = DecimalNumber(left), let y = DecimalNumber(right) else { return a }
        return (x < y) == largest ? b : a
    }
}
