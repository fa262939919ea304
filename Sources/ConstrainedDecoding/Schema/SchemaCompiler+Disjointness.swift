/// Whether two schemas can match the same value: `oneOf` alternatives that cannot overlap need
/// no complements to mean "exactly one".
///
/// Each test reads only keywords that every matching value meets (types, listed values, counts,
/// required members and their schemas), so a schema's other keywords can only make the answer
/// "disjoint" truer: the test may miss a disjoint pair, never call an overlapping pair disjoint.
extension SchemaCompiler {
    /// The type families of JSON values (`integer` is within `number`).
    private static let allFamilies = Set(SchemaKeywords.types)
    /// How deeply member schemas are compared.
    private static let disjointnessDepth = 4

    /// Whether no value can match two of `schemas`, every value also meeting `context` (the
    /// keywords beside a `oneOf`), read with references followed.
    mutating func areDisjoint(_ schemas: [SchemaValue], within context: SchemaValue, at pointer: String) -> Bool {
        let resolved = schemas.map { resolvedForComparison($0, at: pointer) }
        let resolvedContext = resolvedForComparison(context, at: pointer)
        let families = Self.families(resolvedContext)
        let present = Self.requiredNames(resolvedContext)
        for first in resolved.indices {
            for second in resolved.indices where second > first {
                if !areDisjoint(resolved[first], resolved[second], within: families, present: present, at: pointer, depth: 0) { return false }
            }
        }
        return true
    }

    /// The names a schema requires.
    private static func requiredNames(_ schema: SchemaValue) -> [String] {
        schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// For a `oneOf` whose alternatives overlap only in whole types: the families in which no
    /// two alternatives meet, when in each other family at least two alternatives accept every
    /// value (so that no value of it matches exactly one). Alternatives told apart by an object
    /// member but without `type: object` are the common case: every string matches them all.
    /// `nil` when some family is neither.
    mutating func familiesOfExclusiveChoice(_ alternatives: [SchemaValue], within context: SchemaValue, at pointer: String) -> [String]? {
        let resolved = alternatives.map { resolvedForComparison($0, at: pointer) }
        let resolvedContext = resolvedForComparison(context, at: pointer)
        let allowed = Self.families(resolvedContext) ?? Self.allFamilies
        let present = Self.requiredNames(resolvedContext)
        var kept: [String] = []
        for family in SchemaKeywords.types where allowed.contains(family) {
            var disjoint = true
            for first in resolved.indices where disjoint {
                for second in resolved.indices where second > first && disjoint {
                    disjoint = areDisjoint(resolved[first], resolved[second], within: [family], present: present, at: pointer, depth: 0)
                }
            }
            if disjoint {
                kept.append(family)
            } else if resolved.filter({ Self.acceptsEveryValue(of: family, $0) }).count < 2 {
                return nil
            }
        }
        return kept
    }

    /// Keywords that apply to objects alone, besides those of ``SchemaKeywords/byType``.
    private static let objectApplicators: Set<String> = ["dependentRequired", "dependentSchemas"]

    /// Whether `schema` holds for every value of `family`: each keyword of it applies to other
    /// types only.
    private static func acceptsEveryValue(of family: String, _ schema: SchemaValue) -> Bool {
        if case .bool(let flag) = schema { return flag }
        guard let members = schema.objectMembers else { return false }
        for (key, value) in members where !SchemaKeywords.annotations.contains(key) {
            if key == "type" {
                // `integer` is not every number.
                let names = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
                guard names.contains(family) else { return false }
                continue
            }
            var owners = Set(SchemaKeywords.byType.filter { $0.value.contains(key) }.map { $0.key == "integer" ? "number" : $0.key })
            if objectApplicators.contains(key) { owners.insert("object") }
            if owners.isEmpty || owners.contains(family) { return false }
        }
        return true
    }

    private mutating func resolvedForComparison(_ schema: SchemaValue, at pointer: String) -> SchemaValue {
        (try? inlined(schema, at: pointer)) ?? schema
    }

    /// Whether no value of the families `context` (all when `nil`) matches both: their listed
    /// values do not meet, or in every family both allow, the counts or members rule it out.
    /// `present`: member names every value has (the context requires them).
    private mutating func areDisjoint(
        _ left: SchemaValue, _ right: SchemaValue, within context: Set<String>?, present: [String] = [], at pointer: String, depth: Int
    ) -> Bool {
        if case .bool(false) = left { return true }
        if case .bool(false) = right { return true }
        if let leftValues = Self.literals(left), let rightValues = Self.literals(right) {
            return !leftValues.contains(where: rightValues.containsInstance)
        }
        var common = context ?? Self.allFamilies
        if let families = Self.families(left) { common.formIntersection(families) }
        if let families = Self.families(right) { common.formIntersection(families) }
        for family in common {
            switch family {
            case "array" where Self.rangesAreDisjoint("minItems", "maxItems", left, right): continue
            case "string" where Self.rangesAreDisjoint("minLength", "maxLength", left, right): continue
            case "object" where Self.rangesAreDisjoint("minProperties", "maxProperties", left, right): continue
            case "object" where depth < Self.disjointnessDepth && membersAreDisjoint(left, right, present: present, at: pointer, depth: depth): continue
            default: return false
            }
        }
        return true
    }

    /// Whether a member that one of them (or the context, `present`) requires cannot have a value
    /// both allow (a discriminator, or a member one requires and the other forbids).
    private mutating func membersAreDisjoint(_ left: SchemaValue, _ right: SchemaValue, present: [String], at pointer: String, depth: Int) -> Bool {
        var names = present
        for schema in [left, right] {
            for name in Self.requiredNames(schema) where !names.contains(name) { names.append(name) }
        }
        for name in names {
            guard let leftMember = Self.memberSchema(name, in: left), let rightMember = Self.memberSchema(name, in: right) else { continue }
            let a = resolvedForComparison(leftMember, at: pointer)
            let b = resolvedForComparison(rightMember, at: pointer)
            if areDisjoint(a, b, within: nil, at: pointer, depth: depth + 1) { return true }
        }
        return false
    }

    /// The schema every value of member `name` meets: its `properties` entry, else the
    /// `additionalProperties` schema; `nil` when a `patternProperties` pattern may apply instead.
    private static func memberSchema(_ name: String, in schema: SchemaValue) -> SchemaValue? {
        if let declared = schema["properties"]?[name] { return declared }
        if let patterns = schema["patternProperties"]?.objectMembers, !patterns.isEmpty { return nil }
        return schema["additionalProperties"] ?? .bool(true)
    }

    /// Whether the count ranges `[minimum, maximum]` the two schemas give do not meet.
    private static func rangesAreDisjoint(_ minimum: String, _ maximum: String, _ left: SchemaValue, _ right: SchemaValue) -> Bool {
        func bound(_ keyword: String, _ schema: SchemaValue) -> Int? {
            guard case .number(let text)? = schema[keyword], let number = DecimalNumber(text), number.isInteger else { return nil }
            return Int(number.plainText)
        }
        let leftMinimum = bound(minimum, left) ?? 0
        let rightMinimum = bound(minimum, right) ?? 0
        if let rightMaximum = bound(maximum, right), leftMinimum > rightMaximum { return true }
        if let leftMaximum = bound(maximum, left), rightMinimum > leftMaximum { return true }
        return false
    }

    /// The values a schema allows when it lists them (`const`, `enum`).
    static func literals(_ schema: SchemaValue) -> [SchemaValue]? {
        if let constant = schema["const"] { return [constant] }
        return schema["enum"]?.arrayValue
    }

    /// The type families a schema allows, or `nil` for all.
    private static func families(_ schema: SchemaValue) -> Set<String>? {
        if let values = literals(schema) { return Set(values.map(family)) }
        let names: [String]
        switch schema["type"] {
        case .string(let name)?: names = [name]
        case .array(let values)?: names = values.compactMap(\.stringValue)
        default: return nil
        }
        return Set(names.map { $0 == "integer" ? "number" : $0 })
    }
}
