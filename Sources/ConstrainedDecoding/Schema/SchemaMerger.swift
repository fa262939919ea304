/// Merges the schemas of an `allOf` (or a choice and its siblings) into one, where that can be
/// done exactly. Keywords that only one schema has are kept; the same keyword with the same value
/// once. Subschemas that meet (the same property, the same position, two `additionalProperties`)
/// become an `allOf` of both, compiled in turn; `additionalProperties` and `items` are first
/// spelt out for the properties and positions the other schemas name, since they only look at
/// their own schema's. `required` is united, `type` and `enum` intersected, bounds tightened,
/// two `anyOf` distributed. Anything else is refused, naming `allOf`.
enum SchemaMerger {
    /// The most alternatives that distributing two `anyOf`s may give.
    static let maximumDistributedChoices = 64

    static func merge(_ schemas: [SchemaValue], at pointer: String) throws(SchemaError) -> SchemaValue {
        func refuse(_ reason: String) -> SchemaError {
            .unsupported(keyword: "allOf", pointer: pointer + "/allOf", reason: reason)
        }
        var objects: [[(key: String, value: SchemaValue)]] = []
        for schema in schemas {
            switch schema {
            case .bool(true): continue
            case .bool(false): return .bool(false)
            case .object(let members):
                if let nested = schema["allOf"] {
                    guard case .array(let parts) = nested else { throw refuse("a nested allOf must be an array") }
                    let siblings = SchemaValue.members(members.filter { $0.key != "allOf" }.map { ($0.key, $0.value) })
                    let ordered = siblingsComeFirst(in: schema, before: ["allOf"]) ? [siblings] + parts : parts + [siblings]
                    let flattened = try merge(ordered, at: pointer)
                    if case .bool(false) = flattened { return .bool(false) }
                    objects.append(flattened.objectMembers ?? [])
                } else {
                    objects.append(members.map { ($0.key, $0.value) })
                }
            default:
                throw refuse("its schemas must be objects or Booleans")
            }
        }
        guard objects.count > 1 else { return .members(objects.first ?? []) }
        // A condition applies within its own schema: spelt as a choice, it merges with others.
        objects = objects.map(conditionAsChoice)
        objects = try localized(objects, refuse: refuse)
        var merged: [(key: String, value: SchemaValue)] = []
        for members in objects { merged = try combine(merged, members, refuse: refuse) }
        return .members(merged)
    }

    /// Spells out each schema's `additionalProperties` for the properties that only other schemas
    /// name, and its `items` for the positions that only other schemas' `prefixItems` name.
    private static func localized(
        _ objects: [[(key: String, value: SchemaValue)]], refuse: (String) -> SchemaError
    ) throws(SchemaError) -> [[(key: String, value: SchemaValue)]] {
        func value(_ members: [(key: String, value: SchemaValue)], _ key: String) -> SchemaValue? {
            members.last { $0.key == key }?.value
        }
        let allNames = objects.flatMap { value($0, "properties")?.objectMembers?.map(\.key) ?? [] }
        let longestPrefix = objects.map { value($0, "prefixItems")?.arrayValue?.count ?? 0 }.max() ?? 0
        return try objects.map { (members) throws(SchemaError) in
            var members = members
            if let extra = value(members, "additionalProperties") {
                var properties = value(members, "properties")?.objectMembers ?? []
                let missing = allNames.filter { name in !properties.contains { $0.key == name } }
                if !missing.isEmpty {
                    if value(members, "patternProperties") != nil {
                        throw refuse("'additionalProperties' beside patternProperties, with properties named in another schema")
                    }
                    var seen = Set<String>()
                    for name in missing where seen.insert(name).inserted { properties.append((name, extra)) }
                    members.removeAll { $0.key == "properties" }
                    members.append(("properties", .members(properties)))
                }
            }
            let prefix = value(members, "prefixItems")?.arrayValue ?? []
            if prefix.count < longestPrefix, let rest = value(members, "items") ?? .bool(true) as SchemaValue? {
                members.removeAll { $0.key == "prefixItems" }
                members.append(("prefixItems", .array(prefix + Array(repeating: rest, count: longestPrefix - prefix.count))))
            }
            return members
        }
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
            if current.isSameInstance(as: value) || SchemaKeywords.annotations.contains(key) { continue }
            switch key {
            case "properties", "patternProperties", "dependentSchemas":
                guard let left = current.objectMembers, let right = value.objectMembers else { throw refuse("'\(key)' must be an object") }
                var members = left
                for (name, schema) in right {
                    if let at = members.firstIndex(where: { $0.key == name }) {
                        members[at].value = both(members[at].value, schema)
                    } else {
                        members.append((name, schema))
                    }
                }
                result[index].value = .members(members)
            case "prefixItems":
                let left = current.arrayValue ?? []
                let right = value.arrayValue ?? []
                result[index].value = .array((0..<max(left.count, right.count)).map { position in
                    position < left.count && position < right.count ? both(left[position], right[position])
                        : position < left.count ? left[position] : right[position]
                })
            case "additionalProperties", "items", "propertyNames":
                result[index].value = both(current, value)
            case "required", SchemaKeywords.forbiddenNames, SchemaKeywords.notValues, SchemaKeywords.notPatterns, SchemaKeywords.violating:
                let names = (current.arrayValue ?? []) + (value.arrayValue ?? []).filter { !(current.arrayValue ?? []).containsInstance($0) }
                result[index].value = .array(names)
            case "dependentRequired":
                guard let left = current.objectMembers, let right = value.objectMembers else { throw refuse("'\(key)' must be an object") }
                var members = left
                for (name, names) in right {
                    if let at = members.firstIndex(where: { $0.key == name }) {
                        let known = members[at].value.arrayValue ?? []
                        members[at].value = .array(known + (names.arrayValue ?? []).filter { !known.containsInstance($0) })
                    } else {
                        members.append((name, names))
                    }
                }
                result[index].value = .members(members)
            case "type":
                let left = typeNames(current)
                let right = typeNames(value)
                let common = left.filter { right.contains($0) || ($0 == "integer" && right.contains("number")) }
                    + right.filter { $0 == "integer" && left.contains("number") && !left.contains("integer") }
                result[index].value = .array(common.map(SchemaValue.string))
            case "enum":
                let right = value.arrayValue ?? []
                result[index].value = .array((current.arrayValue ?? []).filter { right.containsInstance($0) })
            case "const":
                // Two different constants: nothing matches both.
                return [("enum", .array([]))]
            case "uniqueItems":
                result[index].value = .bool(true)
            case "not":
                result[index].value = .members([("anyOf", .array([current, value]))])
            case "anyOf":
                let left = current.arrayValue ?? []
                let right = value.arrayValue ?? []
                guard left.count * right.count <= maximumDistributedChoices else { throw refuse("two anyOf give too many combinations") }
                result[index].value = .array(left.flatMap { a in right.map { b in .members([("allOf", .array([a, b]))]) } })
            case "minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains":
                result[index].value = extreme(current, value, largest: true)
            case "maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains":
                result[index].value = extreme(current, value, largest: false)
            default:
                throw refuse("'\(key)' is given different values")
            }
        }
        return result
    }

    /// The schema with `if`/`then`/`else` written as `anyOf: [if ∧ then, ¬if ∧ else]` (a
    /// `then` or `else` without `if`, or an `if` without either, does nothing).
    private static func conditionAsChoice(_ members: [(key: String, value: SchemaValue)]) -> [(key: String, value: SchemaValue)] {
        let keys = ["if", "then", "else"]
        guard members.contains(where: { keys.contains($0.key) }) else { return members }
        var result = members.filter { !keys.contains($0.key) }
        func value(_ key: String) -> SchemaValue? { members.last { $0.key == key }?.value }
        guard let condition = value("if"), value("then") != nil || value("else") != nil else { return result }
        let choice = SchemaValue.array([
            .members([("allOf", .array([condition, value("then") ?? .bool(true)]))]),
            .members([("allOf", .array([.members([("not", condition)]), value("else") ?? .bool(true)]))]),
        ])
        if let index = result.firstIndex(where: { $0.key == "anyOf" }) {
            // Two choices: both must hold.
            result.append(("allOf", .array([.members([("anyOf", result[index].value)]), .members([("anyOf", choice)])])))
            result.remove(at: index)
        } else {
            // Where the condition stood (see siblingsComeFirst(in:before:)).
            result.insert(("anyOf", choice), at: members.prefix { !keys.contains($0.key) }.count)
        }
        return result
    }

    /// Whether a schema's other keywords come before what stands at `keywords` (an `allOf`, a
    /// `$ref`, a choice, a condition) when they are merged: unless its `properties` come after
    /// those keywords. Merged in that order, the properties keep the order in which a reader of
    /// the schema meets them.
    static func siblingsComeFirst(in schema: SchemaValue, before keywords: Set<String>) -> Bool {
        let members = schema.objectMembers ?? []
        guard let properties = members.firstIndex(where: { $0.key == "properties" }),
            let keyword = members.firstIndex(where: { keywords.contains($0.key) })
        else { return true }
        return properties < keyword
    }

    /// A schema that both must match, compiled (and merged) when it is reached.
    static func both(_ left: SchemaValue, _ right: SchemaValue) -> SchemaValue {
        if case .bool(true) = left { return right }
        if case .bool(true) = right { return left }
        if case .bool(false) = left { return left }
        if case .bool(false) = right { return right }
        return .members([("allOf", .array([left, right]))])
    }

    /// The type names a `type` value gives.
    static func typeNames(_ value: SchemaValue) -> [String] {
        if let name = value.stringValue { return [name] }
        return value.arrayValue?.compactMap(\.stringValue) ?? []
    }

    private static func extreme(_ a: SchemaValue, _ b: SchemaValue, largest: Bool) -> SchemaValue {
        guard case .number(let left) = a, case .number(let right) = b, let x = DecimalNumber(left), let y = DecimalNumber(right) else { return a }
        return (x < y) == largest ? b : a
    }
}
