import PartialJSON

/// Complements of schemas, for `not`, `if`/`else` and overlapping `oneOf`: a list of schemas whose
/// union is exactly the values a schema rejects, where one can be built from the keywords it uses.
///
/// A schema is the conjunction of its keywords (each true of the values it does not apply to), so
/// its complement is the union of the keywords' complements: `type` gives the other types;
/// `enum`/`const` the other values (strings through an internal exclusion list); bounds the
/// opposite bounds on their own type (a keyword holds for every value of the types it does not
/// apply to, so no other type is in its complement); `pattern` the strings that do not match;
/// `required` an object missing one name; `properties` an object where one listed property
/// breaks its schema; `anyOf` the merge of its alternatives' complements; `not` its schema;
/// `dependentRequired`/`dependentSchemas` an object with a trigger whose demand it breaks.
extension SchemaCompiler {
    /// The most schemas a complement may be made of.
    static let maximumComplementSize = 64

    /// The complement of `schema`, or `nil` when it cannot be built.
    mutating func complement(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> [SchemaValue]? {
        switch schema {
        case .bool(true): return []
        case .bool(false): return [.bool(true)]
        case .object: break
        default: return nil
        }
        guard inliningDepth < 16 else { return nil }
        inliningDepth += 1
        defer { inliningDepth -= 1 }
        var flat: SchemaValue
        do {
            // References followed and nested allOfs flattened, so that the keywords are in view.
            flat = try merge([try inlined(schema, at: pointer)], at: pointer)
        } catch {
            return nil
        }
        if case .bool(false) = flat { return [.bool(true)] }
        let members = (flat.objectMembers ?? []).filter { !SchemaKeywords.annotations.contains($0.key) }
        var result: [SchemaValue] = []
        var handledProperties = false
        var handledItems = false
        for (key, value) in members {
            let part: [SchemaValue]?
            switch key {
            case "properties", "additionalProperties", "patternProperties":
                guard !handledProperties else { continue }
                handledProperties = true
                part = try complementOfProperties(flat, at: pointer)
            case "items", "prefixItems":
                guard !handledItems else { continue }
                handledItems = true
                part = try complementOfItems(flat, at: pointer)
            default:
                part = try complement(of: key, value, in: flat, at: pointer)
            }
            guard let part else { return nil }
            result += part
            guard result.count <= Self.maximumComplementSize else { return nil }
        }
        return result
    }

    /// The JSON types but `types` (`integer` counted within `number`).
    private static func otherTypes(_ types: [String]) -> SchemaValue {
        .members([("type", .array(SchemaKeywords.types.filter { !types.contains($0) }.map(SchemaValue.string)))])
    }

    private static func typed(_ type: String, _ members: [(key: String, value: SchemaValue)]) -> SchemaValue {
        .members([("type", .string(type))] + members)
    }

    private static func shifted(_ value: SchemaValue, by delta: Int) -> SchemaValue? {
        guard case .number(let text) = value, let number = DecimalNumber(text), number.isInteger, let count = Int(number.plainText) else { return nil }
        return .number(JSONNumber(count + delta))
    }

    /// The complement of one keyword (with the schema it sits in), or `nil`.
    private mutating func complement(of key: String, _ value: SchemaValue, in schema: SchemaValue, at pointer: String) throws(SchemaError) -> [SchemaValue]? {
        switch key {
        case "type":
            let types = try allowedTypes(schema, at: pointer)
            // Integers without numbers: the other types, and the numbers that are not integers.
            if types.contains("integer") && !types.contains("number") {
                return [Self.otherTypes(types + ["number"]), Self.typed("number", [(SchemaKeywords.notInteger, .bool(true))])]
            }
            return types.count == SchemaKeywords.types.count ? [] : [Self.otherTypes(types)]
        case "enum", "const":
            let values = key == "const" ? [value] : (value.arrayValue ?? [])
            return Self.complement(ofValues: values)
        case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
            let type = key.hasSuffix("Length") ? "string" : key.hasSuffix("Items") ? "array" : "object"
            let isMinimum = key.hasPrefix("min")
            if isMinimum, case .number(let text) = value, DecimalNumber(text) == DecimalNumber(0) { return [] }
            guard let bound = Self.shifted(value, by: isMinimum ? -1 : 1) else { return nil }
            let opposite = (isMinimum ? "max" : "min") + key.dropFirst(3)
            return [Self.typed(type, [(opposite, bound)])]
        case "minimum": return [Self.typed("number", [("exclusiveMaximum", value)])]
        case "exclusiveMinimum": return [Self.typed("number", [("maximum", value)])]
        case "maximum": return [Self.typed("number", [("exclusiveMinimum", value)])]
        case "exclusiveMaximum": return [Self.typed("number", [("minimum", value)])]
        case "pattern":
            return [Self.typed("string", [(SchemaKeywords.notPatterns, .array([value]))])]
        case "format":
            guard options.assertsFormats, let name = value.stringValue, let regex = Self.formats[name] else { return [] }
            return [Self.typed("string", [(SchemaKeywords.notPatterns, .array([.string("^(?:" + regex + ")$")]))])]
        case "required":
            let names = value.arrayValue ?? []
            guard !names.isEmpty else { return [] }
            return names.map { Self.typed("object", [(SchemaKeywords.forbiddenNames, .array([$0]))]) }
        case "not":
            return [value]
        case "dependentRequired":
            // A trigger present and one of the names it needs absent.
            var result: [SchemaValue] = []
            for (trigger, names) in value.objectMembers ?? [] {
                for name in names.arrayValue ?? [] {
                    result.append(Self.typed("object", [("required", .array([.string(trigger)])), (SchemaKeywords.forbiddenNames, .array([name]))]))
                }
            }
            return result
        case "dependentSchemas":
            // A trigger present and its schema broken.
            var result: [SchemaValue] = []
            for (trigger, dependent) in value.objectMembers ?? [] {
                guard let parts = try complement(dependent, at: pointer + "/dependentSchemas/" + SchemaDocument.escape(trigger)) else { return nil }
                let present = Self.typed("object", [("required", .array([.string(trigger)]))])
                for part in parts {
                    guard let merged = try? merge([present, part], at: pointer) else { return nil }
                    result.append(merged)
                }
                guard result.count <= Self.maximumComplementSize else { return nil }
            }
            return result
        case "anyOf":
            return try complementOfAll(value.arrayValue ?? [], at: pointer + "/anyOf")
        case "oneOf":
            // None of the alternatives, or two of them at once.
            let alternatives = value.arrayValue ?? []
            guard var result = try complementOfAll(alternatives, at: pointer + "/oneOf") else { return nil }
            for first in alternatives.indices {
                for second in alternatives.indices where second > first {
                    guard !areDisjoint([alternatives[first], alternatives[second]], within: .bool(true), at: pointer) else { continue }
                    guard let both = try? merge([alternatives[first], alternatives[second]], at: pointer) else { return nil }
                    result.append(both)
                    guard result.count <= Self.maximumComplementSize else { return nil }
                }
            }
            return result
        case SchemaKeywords.notValues:
            return [.members([("type", .string("string")), ("enum", value)])]
        case SchemaKeywords.notPatterns:
            return (value.arrayValue ?? []).map { Self.typed("string", [("pattern", $0)]) }
        case SchemaKeywords.notInteger:
            return [.members([("type", .string("integer"))])]
        case SchemaKeywords.forbiddenNames:
            return (value.arrayValue ?? []).map { Self.typed("object", [("required", .array([$0]))]) }
        case "x-order":
            return []
        default:
            return nil
        }
    }

    /// Every value but `values`, by type: whole types that none of them has, the other Boolean,
    /// strings through the exclusion list, numbers in the open intervals between them. Arrays and
    /// objects among them make it `nil`.
    private static func complement(ofValues values: [SchemaValue]) -> [SchemaValue]? {
        var result: [SchemaValue] = []
        var strings: [SchemaValue] = []
        var booleans: [Bool] = []
        var numbers: [DecimalNumber] = []
        var hasNull = false
        for value in values {
            switch value {
            case .null: hasNull = true
            case .bool(let flag): booleans.append(flag)
            case .string: strings.append(value)
            case .number(let text):
                guard let number = DecimalNumber(text) else { return nil }
                if !numbers.contains(number) { numbers.append(number) }
            default: return nil
            }
        }
        let coveredTypes = (hasNull ? ["null"] : []) + (booleans.isEmpty ? [] : ["boolean"]) + (strings.isEmpty ? [] : ["string"])
            + (numbers.isEmpty ? [] : ["number"])
        result.append(otherTypes(coveredTypes))
        // The numbers between the listed ones: open intervals.
        numbers.sort()
        for index in 0...numbers.count where !numbers.isEmpty {
            var bounds: [(key: String, value: SchemaValue)] = []
            if index > 0 { bounds.append(("exclusiveMinimum", .number(numbers[index - 1].jsonNumber))) }
            if index < numbers.count { bounds.append(("exclusiveMaximum", .number(numbers[index].jsonNumber))) }
            result.append(typed("number", bounds))
        }
        if !booleans.isEmpty, booleans.count < 2 || Set(booleans).count < 2, let flag = booleans.first {
            result.append(.members([("enum", .array([.bool(!flag)]))]))
        }
        if !strings.isEmpty { result.append(typed("string", [(SchemaKeywords.notValues, .array(strings))])) }
        return result
    }

    /// The values that match none of `schemas`: split by a discriminating member when they have
    /// one, else the merge of one schema from each complement.
    private mutating func complementOfAll(_ schemas: [SchemaValue], at pointer: String) throws(SchemaError) -> [SchemaValue]? {
        if let split = try complementByDiscriminator(schemas, at: pointer) { return split }
        var combinations: [[SchemaValue]] = [[]]
        for (index, schema) in schemas.enumerated() {
            guard let parts = try complement(schema, at: pointer + "/\(index)") else { return nil }
            combinations = combinations.flatMap { prefix in parts.map { prefix + [$0] } }
            guard combinations.count <= Self.maximumComplementSize else { return nil }
        }
        var result: [SchemaValue] = []
        for combination in combinations {
            guard let merged = try? merge(combination, at: pointer) else { return nil }
            result.append(merged)
        }
        return result
    }

    /// The objects that match none of `schemas` when each of them is an object that requires a
    /// member of listed values, none shared between them (a discriminator, such as `type`): the
    /// objects without that member or with another value, and for each schema, the objects with
    /// its values that break it. Linear in the schemas, where the merge of complements multiplies.
    /// `nil` when there is no such member, or a part cannot be built.
    private mutating func complementByDiscriminator(_ schemas: [SchemaValue], at pointer: String) throws(SchemaError) -> [SchemaValue]? {
        guard schemas.count > 1 else { return nil }
        var flattened: [SchemaValue] = []
        for schema in schemas {
            guard let flat = try? merge([try inlined(schema, at: pointer)], at: pointer), flat.objectMembers != nil,
                SchemaMerger.typeNames(flat["type"] ?? .null) == ["object"]
            else { return nil }
            flattened.append(flat)
        }
        let candidates = flattened[0]["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var found: (name: String, values: [[SchemaValue]])?
        for name in candidates where found == nil {
            var values: [[SchemaValue]] = []
            for flat in flattened {
                guard flat["required"]?.arrayValue?.containsInstance(.string(name)) == true, let member = flat["properties"]?[name],
                    let listed = Self.literals((try? inlined(member, at: pointer)) ?? member),
                    !values.contains(where: { earlier in earlier.contains(where: listed.containsInstance) })
                else { break }
                values.append(listed)
            }
            if values.count == flattened.count { found = (name, values) }
        }
        guard let (name, values) = found, let others = Self.complement(ofValues: values.flatMap { $0 }) else { return nil }
        var result: [SchemaValue] = [
            Self.otherTypes(["object"]),
            Self.typed("object", [(SchemaKeywords.forbiddenNames, .array([.string(name)]))]),
        ]
        for other in others {
            result.append(Self.typed("object", [("required", .array([.string(name)])), ("properties", .members([(name, other)]))]))
        }
        for (index, schema) in schemas.enumerated() {
            guard let parts = try complement(schema, at: pointer + "/\(index)") else { return nil }
            let cell = Self.typed("object", [("required", .array([.string(name)])), ("properties", .members([(name, .members([("enum", .array(values[index]))]))]))])
            for part in parts {
                guard let merged = try? merge([cell, part], at: pointer) else { return nil }
                result.append(merged)
            }
            guard result.count <= Self.maximumComplementSize else { return nil }
        }
        return result
    }

    /// The arrays where one item breaks its schema: a `prefixItems` position, or (without
    /// `prefixItems`) any item against `items`, through `contains`. `nil` when both are given.
    private mutating func complementOfItems(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> [SchemaValue]? {
        let prefix = schema["prefixItems"]?.arrayValue ?? []
        if let items = schema["items"] {
            guard prefix.isEmpty else { return nil }
            guard let parts = try complement(items, at: pointer + "/items") else { return nil }
            return parts.map { Self.typed("array", [("contains", $0)]) }
        }
        var result: [SchemaValue] = []
        for (position, element) in prefix.enumerated() {
            guard let parts = try complement(element, at: pointer + "/prefixItems/\(position)") else { return nil }
            let before = [SchemaValue](repeating: .bool(true), count: position)
            for part in parts {
                result.append(Self.typed("array", [("minItems", .number(JSONNumber(position + 1))), ("prefixItems", .array(before + [part]))]))
            }
            guard result.count <= Self.maximumComplementSize else { return nil }
        }
        return result
    }

    /// The objects where one member breaks its schema (its `properties` entry, else
    /// `additionalProperties`), as one set of `$guided:violating` rules; `nil` with
    /// `patternProperties`, whose complement is not built.
    private mutating func complementOfProperties(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> [SchemaValue]? {
        guard schema["patternProperties"] == nil else { return nil }
        var breakable = false
        func rule(_ kept: SchemaValue, at pointer: String, _ compiler: inout SchemaCompiler) throws(SchemaError) -> SchemaValue? {
            guard let broken = try compiler.complement(kept, at: pointer) else { return nil }
            if !broken.isEmpty { breakable = true }
            return .members([("kept", kept), ("broken", .array(broken))])
        }
        var members: [(key: String, value: SchemaValue)] = []
        for (name, propertySchema) in schema["properties"]?.objectMembers ?? [] {
            guard let member = try rule(propertySchema, at: pointer + "/properties/" + SchemaDocument.escape(name), &self) else { return nil }
            members.append((name, member))
        }
        guard let others = try rule(schema["additionalProperties"] ?? .bool(true), at: pointer + "/additionalProperties", &self) else { return nil }
        guard breakable else { return [] }
        let rules = SchemaValue.members([("properties", .members(members)), ("others", others)])
        return [Self.typed("object", [(SchemaKeywords.violating, .array([rules]))])]
    }

    /// `not`: the schema's other keywords, merged with each part of the complement.
    mutating func compileNegation(_ negated: SchemaValue, _ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        guard let parts = try complement(negated, at: pointer + "/not") else {
            try refuse("not", at: pointer, "the complement of this schema cannot be built")
            return try compile(.members((schema.objectMembers ?? []).filter { $0.key != "not" }), at: pointer)
        }
        let siblings = SchemaValue.members((schema.objectMembers ?? []).filter { $0.key != "not" })
        return try compileUnion(parts.map { [siblings, $0] }, at: pointer)
    }

    /// `if`/`then`/`else`: the values that match `if` and `then`, and those that match the
    /// complement of `if` and `else`, each with the schema's other keywords.
    mutating func compileCondition(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        let members = schema.objectMembers ?? []
        let siblings = SchemaValue.members(members.filter { !["if", "then", "else"].contains($0.key) })
        guard let condition = schema["if"], schema["then"] != nil || schema["else"] != nil else {
            // Without `if`, `then` and `else` do nothing; without them, `if` does nothing.
            return try compile(siblings, at: pointer)
        }
        guard let otherwise = try complement(condition, at: pointer + "/if") else {
            try refuse("if", at: pointer, "the complement of the condition cannot be built")
            return try compile(siblings, at: pointer)
        }
        let then = schema["then"] ?? .bool(true)
        let elseSchema = schema["else"] ?? .bool(true)
        let first = SchemaMerger.siblingsComeFirst(in: schema, before: ["if", "then", "else"])
        func arranged(_ parts: [SchemaValue]) -> [SchemaValue] { first ? [siblings] + parts : parts + [siblings] }
        return try compileUnion([arranged([condition, then])] + otherwise.map { arranged([$0, elseSchema]) }, at: pointer)
    }

    /// `oneOf` whose alternatives may overlap: each alternative merged with its siblings (after
    /// them when `siblingsFirst`) and with the complements of the others it may overlap with, so
    /// that exactly one matches.
    mutating func compileExclusiveChoice(_ alternatives: [SchemaValue], siblings: SchemaValue, siblingsFirst: Bool, at pointer: String) throws(SchemaError) -> Fragment? {
        var branches: [[SchemaValue]] = []
        for (index, alternative) in alternatives.enumerated() {
            var combinations: [[SchemaValue]] = [siblingsFirst ? [siblings, alternative] : [alternative, siblings]]
            for (other, rival) in alternatives.enumerated() where other != index && !areDisjoint([alternative, rival], within: siblings, at: pointer) {
                guard let parts = try complement(rival, at: pointer + "/oneOf/\(other)") else {
                    throw unsupported("oneOf", at: pointer, "its alternatives may overlap, and the complement of alternative \(other) cannot be built")
                }
                combinations = combinations.flatMap { prefix in parts.map { prefix + [$0] } }
                guard combinations.count <= Self.maximumComplementSize else {
                    throw unsupported("oneOf", at: pointer, "its alternatives may overlap in too many ways to enforce 'exactly one'")
                }
            }
            branches += combinations
        }
        return try compileUnion(branches, at: pointer)
    }

    /// The union of the merges of several lists of schemas; a merge that cannot be done exactly
    /// is refused, naming its keyword.
    private mutating func compileUnion(_ conjunctions: [[SchemaValue]], at pointer: String) throws(SchemaError) -> Fragment? {
        var fragments: [Fragment] = []
        for parts in conjunctions {
            if let fragment = try compile(try merge(parts, at: pointer), at: pointer) { fragments.append(fragment) }
        }
        return fragments.isEmpty ? nil : try builder.alternation(fragments)
    }
}
