/// Objects: named properties in schema order, then further members (`patternProperties`,
/// `additionalProperties`), names limited by `propertyNames`, counts by `minProperties` and
/// `maxProperties`, `dependentRequired`/`dependentSchemas` by splitting on which trigger
/// properties are present, and the rules of complements (`$guided:violating`) by a flag per set
/// of rules that a member broke.
extension SchemaCompiler {
    /// The most trigger properties of `dependentRequired` and `dependentSchemas` an object may
    /// have (each doubles the object's automaton), and the most patterns that may overlap.
    static let maximumTriggers = 4
    static let maximumOverlappingPatterns = 3
    /// The most sets of rules an object must break (each doubles its lanes), and the most
    /// kinds of value a member may take across them.
    static let maximumViolationSets = 6
    static let maximumMemberVariants = 256
    /// The largest member count that `minProperties`/`maxProperties` may make the automaton count to.
    static let maximumCountedProperties = 24

    mutating func compileObject(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        if schema["dependentRequired"] != nil || schema["dependentSchemas"] != nil {
            return try compileDependencies(schema, at: pointer)
        }
        var properties = schema["properties"]?.objectMembers ?? []
        if let value = schema["x-order"] {
            let order = value.arrayValue?.compactMap(\.stringValue) ?? []
            guard order.count == value.arrayValue?.count, Set(order) == Set(properties.map(\.key)), Set(order).count == order.count else {
                throw invalid("x-order", at: pointer, "must list each property once")
            }
            properties.sort { (order.firstIndex(of: $0.key) ?? .max) < (order.firstIndex(of: $1.key) ?? .max) }
        }
        let requiredNames = schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let required = Set(requiredNames)
        let forbidden = Set(schema[SchemaKeywords.forbiddenNames]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let names = try propertyNameAutomaton(schema, at: pointer)
        let patterns = try patternAutomata(schema, at: pointer)
        let additional: SchemaValue? = switch schema["additionalProperties"] {
        case .bool(false)?: nil
        case let value?: value
        // An object schema that names no property at all (`{"type": "object"}`, a `dict`
        // parameter, `json_object`) is any object: forbidding what it does not name would
        // leave only `{}`.
        case nil: options.extraProperties == .allow || (schema["properties"] == nil && schema["patternProperties"] == nil) ? .bool(true) : nil
        }

        // The members this object may name: listed properties, then required names not listed.
        var members: [(name: String, schema: SchemaValue, pointer: String, isRequired: Bool)] = []
        for (name, propertySchema) in properties where !members.contains(where: { $0.name == name }) {
            members.append((name, propertySchema, pointer + "/properties/" + SchemaDocument.escape(name), required.contains(name)))
        }
        for name in requiredNames where !members.contains(where: { $0.name == name }) {
            // Not listed: the schema of the patterns it matches, else of additional properties.
            members.append((name, schema["additionalProperties"] ?? .bool(true), pointer + "/required", true))
        }
        // Names that rules must be able to break are named too.
        let violations = try violationSets(schema, at: pointer)
        for set in violations {
            for (name, _) in set.members where !members.contains(where: { $0.name == name }) {
                members.append((name, schema["additionalProperties"] ?? .bool(true), pointer + "/properties/" + SchemaDocument.escape(name), false))
            }
        }
        var effective: [(name: String, schema: SchemaValue, pointer: String, isRequired: Bool)] = []
        for member in members {
            let allowed = !forbidden.contains(member.name) && (names?.accepts(member.name) ?? true)
            guard allowed else {
                if member.isRequired { return nil }
                continue
            }
            let matching = patterns.filter { $0.automaton.accepts(member.name) }.map(\.schema)
            let isListed = properties.contains { $0.key == member.name }
            var parts = isListed || matching.isEmpty ? [member.schema] : []
            parts += matching
            let value = parts.count == 1 ? parts[0] : .members([("allOf", .array(parts))])
            effective.append((member.name, value, member.pointer, member.isRequired))
        }

        // Further members: one class of names per combination of the patterns they match.
        var universe = names ?? .anyString
        universe = universe.subtractingNames(members.map(\.name) + forbidden.sorted())
        var extraClasses: [(names: CodePointAutomaton, schema: SchemaValue, pointer: String)] = []
        do {
            extraClasses = try memberClasses(universe: universe, patterns: patterns, additional: additional, at: pointer)
        } catch {
            throw unsupported("patternProperties", at: pointer, error.reason)
        }

        // Counting: lane c holds "c members written" (the last lane: at least that many, when
        // there is no maximum).
        let requiredCount = effective.filter(\.isRequired).count
        let mostPossible = extraClasses.isEmpty ? effective.count : Int.max
        var minimum = try count("minProperties", of: schema, at: pointer) ?? 0
        var maximum = try count("maxProperties", of: schema, at: pointer)
        if minimum <= requiredCount { minimum = 0 }
        if let bound = maximum, bound >= mostPossible { maximum = nil }
        if let maximum, maximum < requiredCount || maximum < minimum { return nil }
        if minimum > mostPossible { return nil }
        let lastLane = max(1, maximum ?? minimum)
        guard lastLane <= Self.maximumCountedProperties else {
            throw unsupported(maximum != nil ? "maxProperties" : "minProperties", at: pointer, "counts above \(Self.maximumCountedProperties) are not supported")
        }
        let sharesValues = lastLane > 1
        func canWrite(_ lane: Int) -> Bool { maximum.map { lane < $0 } ?? true }

        // With `$guided:violating`, a flag per set of rules in each lane: whether a member broke one.
        let flags = 1 << violations.count
        func index(_ lane: Int, _ flag: Int) -> Int { lane * flags + flag }
        // The values a member may take: per set of rules, one that keeps its rule for that member,
        // and those that break it (setting the set's flag).
        func variants(_ value: SchemaValue, name: String?, _ compiler: SchemaCompiler) throws(SchemaError) -> [(value: SchemaValue, flag: Int)] {
            var result: [(value: SchemaValue, flag: Int)] = [(value, 0)]
            for (position, set) in violations.enumerated() {
                let rule = name.flatMap { name in set.members.first { $0.name == name }?.rule } ?? set.others
                result = result.flatMap { variant in
                    [(SchemaMerger.both(variant.value, rule.kept), variant.flag)]
                        + rule.broken.map { (SchemaMerger.both(variant.value, $0), variant.flag | 1 << position) }
                }
                guard result.count <= Self.maximumMemberVariants else {
                    throw compiler.unsupported("not", at: pointer, "the complement needs more than \(Self.maximumMemberVariants) kinds of member")
                }
            }
            return result
        }
        // Further members, in any number, after the named ones; their kinds of name and value.
        var extraParts: [(names: CodePointAutomaton, schema: SchemaValue, pointer: String, flag: Int)] = []
        for extra in extraClasses {
            for write in try variants(extra.schema, name: nil, self) { extraParts.append((extra.names, write.value, extra.pointer, write.flag)) }
        }
        // Two states per position, lane and flag: where the next member's name starts (after the
        // comma once a member was written), and, from lane 1 on, where a member's value ended.
        // The comma is written once per value end, not once per member that may follow it, so
        // that the states after a value stay few however many optional members come later.
        // Laid out, the line break after the brace comes with the first member, so that an empty
        // object is `{}`.
        let isIndented = isIndented
        let open = try builder.sequence([try builder.literal("{".utf8), try whitespace(isIndented ? nil : .opening)])
        func enter(_ from: Int32, _ start: Int32, lane: Int, _ compiler: inout SchemaCompiler) throws(SchemaError) {
            guard isIndented, lane == 0 else { return compiler.builder.epsilon(from, start) }
            let lineBreak = try compiler.whitespace(.opening)
            compiler.builder.epsilon(from, lineBreak.start)
            compiler.builder.epsilon(lineBreak.end, start)
        }
        var keys = [Int32?](repeating: nil, count: (lastLane + 1) * flags)
        keys[0] = open.end
        var closing: [Int32] = []
        // Whether the members from each position on are all optional: a value end there may close.
        var restIsOptional = [Bool](repeating: true, count: effective.count + 1)
        for position in effective.indices.reversed() {
            restIsOptional[position] = restIsOptional[position + 1] && !effective[position].isRequired
        }
        func made(_ key: Int, _ states: inout [Int32?], _ compiler: inout SchemaCompiler) throws(SchemaError) -> Int32 {
            if let existing = states[key] { return existing }
            let created = try compiler.builder.newState()
            states[key] = created
            return created
        }
        /// The end of a value in `key` at `position`, with its comma to `nextKeys[key]` when a
        /// member may follow, and its way to the closing brace when the rest is optional.
        func valueEnd(
            _ key: Int, at position: Int, _ ends: inout [Int32?], _ nextKeys: inout [Int32?], _ compiler: inout SchemaCompiler
        ) throws(SchemaError) -> Int32 {
            if let existing = ends[key] { return existing }
            let state = try made(key, &ends, &compiler)
            if canWrite(key / flags), position < effective.count || !extraParts.isEmpty {
                let comma = try compiler.token(",")
                compiler.builder.epsilon(state, comma.start)
                compiler.builder.epsilon(comma.end, try made(key, &nextKeys, &compiler))
            }
            if restIsOptional[position], key / flags >= minimum, key % flags == flags - 1 { closing.append(state) }
            return state
        }
        var ends = [Int32?](repeating: nil, count: keys.count)
        for (position, member) in effective.enumerated() {
            var nextKeys = [Int32?](repeating: nil, count: keys.count)
            ends = [Int32?](repeating: nil, count: keys.count)
            let writes = try variants(member.schema, name: member.name, self)
            var paths: [Int: Int32] = [:]
            for lane in 0...lastLane {
                for flag in 0..<flags {
                    guard let from = keys[index(lane, flag)] else { continue }
                    if !member.isRequired { builder.epsilon(from, try made(index(lane, flag), &nextKeys, &self)) }
                    guard canWrite(lane) else { continue }
                    for (variant, write) in writes.enumerated() {
                        // Lanes that lead to the same value end share the member's path.
                        let target = index(min(lane + 1, lastLane), flag | write.flag)
                        let slot = variant * keys.count + target
                        if paths[slot] == nil {
                            guard let path = try memberPath(key: try quotedKey(member.name), value: write.value, at: member.pointer, shared: sharesValues)
                            else { continue }
                            builder.epsilon(path.end, try valueEnd(target, at: position + 1, &ends, &nextKeys, &self))
                            paths[slot] = path.start
                        }
                        if let start = paths[slot] { try enter(from, start, lane: lane, &self) }
                    }
                }
            }
            keys = nextKeys
        }
        var paths: [Int: Int32] = [:]
        for lane in 0...lastLane where canWrite(lane) {
            for flag in 0..<flags {
                guard let from = keys[index(lane, flag)] else { continue }
                for (kind, extra) in extraParts.enumerated() {
                    let target = index(min(lane + 1, lastLane), flag | extra.flag)
                    let slot = kind * keys.count + target
                    if paths[slot] == nil {
                        // Names that patterns or `propertyNames` constrain are shared contents;
                        // any name but the listed ones is spelt in place, as plain text settles it.
                        let key = names != nil || !patterns.isEmpty
                            ? try quotedName(extra.names, at: extra.pointer) : try quotedString(extra.names)
                        guard let path = try memberPath(key: key, value: extra.schema, at: extra.pointer, shared: sharesValues) else { continue }
                        builder.epsilon(path.end, try valueEnd(target, at: effective.count, &ends, &keys, &self))
                        paths[slot] = path.start
                    }
                    if let start = paths[slot] { try enter(from, start, lane: lane, &self) }
                }
            }
        }
        // With no member written, the object closes after the last position's name start.
        let empty = minimum == 0 ? keys[index(0, flags - 1)] : nil
        if let empty, !isIndented { closing.append(empty) }
        let close = try builder.sequence([try whitespace(.closing), try builder.literal("}".utf8)])
        for state in closing { builder.epsilon(state, close.start) }
        if let empty, isIndented {
            let brace = try builder.literal("}".utf8)
            builder.epsilon(empty, brace.start)
            builder.epsilon(brace.end, close.end)
        }
        let closes = !closing.isEmpty || (empty != nil && isIndented)
        return closes ? Fragment(start: open.start, end: close.end) : nil
    }

    /// A rule on member values: what keeps it, and the complement of that, which breaks it.
    struct MemberRule {
        var kept: SchemaValue
        var broken: [SchemaValue]
    }

    /// One set of `$guided:violating` rules: per listed name, and for the other names.
    struct ViolationSet {
        var members: [(name: String, rule: MemberRule)]
        var others: MemberRule
    }

    /// The sets of rules of `$guided:violating`, of which an object must break one each.
    private func violationSets(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> [ViolationSet] {
        func rule(_ value: SchemaValue?) throws(SchemaError) -> MemberRule {
            guard let value else { return MemberRule(kept: .bool(true), broken: []) }
            guard let kept = value["kept"], let broken = value["broken"]?.arrayValue else {
                throw invalid(SchemaKeywords.violating, at: pointer, "each rule must have 'kept' and 'broken'")
            }
            return MemberRule(kept: kept, broken: broken)
        }
        var sets: [ViolationSet] = []
        for value in schema[SchemaKeywords.violating]?.arrayValue ?? [] {
            var members: [(name: String, rule: MemberRule)] = []
            for (name, member) in value["properties"]?.objectMembers ?? [] { members.append((name, try rule(member))) }
            sets.append(ViolationSet(members: members, others: try rule(value["others"])))
        }
        guard sets.count <= Self.maximumViolationSets else {
            throw unsupported("not", at: pointer, "more than \(Self.maximumViolationSets) complements of objects meet here")
        }
        return sets
    }

    /// `"key":value`, or `nil` when the value can be nothing. With `shared`, the value is a call
    /// of a definition, so that several lanes do not each copy it.
    private mutating func memberPath(key: Fragment, value: SchemaValue, at pointer: String, shared: Bool) throws(SchemaError) -> Fragment? {
        let valueFragment: Fragment?
        if shared, case .object = value {
            valueFragment = try builder.call(nested { $0.definition(pointer, schema: value, key: pointer + "#" + value.jsonString) })
        } else {
            valueFragment = try nested { (compiler: inout SchemaCompiler) throws(SchemaError) in try compiler.compile(value, at: pointer) }
        }
        guard let valueFragment else { return nil }
        return try builder.sequence([key, try token(":"), valueFragment])
    }

    private mutating func quotedKey(_ name: String) throws(SchemaError) -> Fragment {
        try builder.literal(SchemaValue.quoted(name).utf8)
    }

    /// A quoted string of the automaton's language, spelt in place.
    mutating func quotedString(_ automaton: CodePointAutomaton) throws(SchemaError) -> Fragment {
        let quote = UInt8(ascii: "\"")
        let contents = try JSONStringSpelling.fragment(of: automaton, spelling: .jsonString, in: &builder)
        return try builder.sequence([try builder.literal([quote]), contents, try builder.literal([quote])])
    }

    /// A quoted member name of the automaton's language. Its contents call a definition shared by
    /// every name with the same automaton, as the contents of `pattern` strings do: a name is
    /// followed by its closing quote alone, so its states have string interiors
    /// (``LazyDFA/stringInterior(_:)``) whose masks are shared and precomputed.
    mutating func quotedName(_ automaton: CodePointAutomaton, at pointer: String) throws(SchemaError) -> Fragment {
        let quote = UInt8(ascii: "\"")
        let contents = try builder.call(stringContentsDefinition(automaton, key: Self.nameContentsKey + automaton.fingerprint, at: pointer))
        return try builder.sequence([try builder.literal([quote]), contents, try builder.literal([quote])])
    }

    /// The key prefix, after ``stringContentsKey``, of the definitions of member names' contents:
    /// apart from those of string values, which are keyed by their keywords.
    static let nameContentsKey = "#name\u{0}"

    /// The classes of further member names, each with the schema its values must match: per
    /// combination of matching patterns (the schemas of all of them), and the names no pattern
    /// matches (`additionalProperties`, when further members are allowed).
    private func memberClasses(
        universe: CodePointAutomaton, patterns: [(automaton: CodePointAutomaton, schema: SchemaValue, pointer: String)],
        additional: SchemaValue?, at pointer: String
    ) throws(RegexError) -> [(names: CodePointAutomaton, schema: SchemaValue, pointer: String)] {
        var classes: [(names: CodePointAutomaton, schema: SchemaValue, pointer: String)] = []
        var unmatched = universe
        for pattern in patterns { unmatched = try unmatched.subtracting(pattern.automaton) }
        if let additional, case .bool(false) = additional {} else if let additional, !unmatched.isEmpty {
            classes.append((unmatched, additional, pointer + "/additionalProperties"))
        }
        guard !patterns.isEmpty else { return classes }
        var disjoint = true
        for first in patterns.indices {
            for second in patterns.indices where second > first {
                if !(try patterns[first].automaton.intersection(patterns[second].automaton)).isEmpty { disjoint = false }
            }
        }
        if disjoint {
            for pattern in patterns {
                let names = try universe.intersection(pattern.automaton)
                if !names.isEmpty { classes.append((names, pattern.schema, pattern.pointer)) }
            }
            return classes
        }
        guard patterns.count <= Self.maximumOverlappingPatterns else {
            throw RegexError(reason: "more than \(Self.maximumOverlappingPatterns) overlapping patterns")
        }
        for subset in 1..<(1 << patterns.count) {
            var names = universe
            var schemas: [SchemaValue] = []
            for (index, pattern) in patterns.enumerated() {
                if subset & (1 << index) != 0 {
                    names = try names.intersection(pattern.automaton)
                    schemas.append(pattern.schema)
                } else {
                    names = try names.subtracting(pattern.automaton)
                }
            }
            guard !names.isEmpty else { continue }
            let schema = schemas.count == 1 ? schemas[0] : .members([("allOf", .array(schemas))])
            classes.append((names, schema, pointer + "/patternProperties"))
        }
        return classes
    }

    /// The automata of `patternProperties`, with their schemas.
    private mutating func patternAutomata(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> [(automaton: CodePointAutomaton, schema: SchemaValue, pointer: String)] {
        guard let value = schema["patternProperties"] else { return [] }
        guard case .object(let entries) = value else { throw invalid("patternProperties", at: pointer, "must be an object") }
        var result: [(automaton: CodePointAutomaton, schema: SchemaValue, pointer: String)] = []
        for (pattern, patternSchema) in entries.map({ ($0.key, $0.value) }) {
            do {
                let automaton = try regexAutomata.automaton(of: try RegexParser.patternLanguage(pattern))
                result.append((automaton, patternSchema, pointer + "/patternProperties/" + SchemaDocument.escape(pattern)))
            } catch {
                try refuse("patternProperties", at: pointer, "'\(pattern)': \(error.reason)")
            }
        }
        return result
    }

    /// The automaton of the member names `propertyNames` allows, or `nil` when it allows any.
    private mutating func propertyNameAutomaton(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> CodePointAutomaton? {
        guard let value = schema["propertyNames"] else { return nil }
        let namePointer = pointer + "/propertyNames"
        let names = try inlined(value, at: namePointer)
        switch names {
        case .bool(true): return nil
        case .bool(false): return CodePointAutomaton.anyString.emptied
        default: break
        }
        let allowed: Set<String> = ["type", "pattern", "minLength", "maxLength", "format", "enum", "const", SchemaKeywords.notValues, SchemaKeywords.notPatterns]
        for (key, _) in names.objectMembers ?? [] where !allowed.contains(key) && !SchemaKeywords.annotations.contains(key) {
            try refuse("propertyNames", at: pointer, "'\(key)' on member names cannot be enforced")
        }
        if let types = try? allowedTypes(names, at: namePointer), !types.contains("string") { return CodePointAutomaton.anyString.emptied }
        var automaton = try stringAutomaton(names, at: namePointer)
            ?? (try? regexAutomata.automaton(of: nil, minimumLength: count("minLength", of: names, at: namePointer) ?? 0,
                maximumLength: count("maxLength", of: names, at: namePointer)))
            ?? .anyString
        var literals: [String]?
        if let constant = names["const"] { literals = [constant.stringValue].compactMap { $0 } }
        if let choices = names["enum"]?.arrayValue {
            let strings = choices.compactMap(\.stringValue)
            literals = literals.map { $0.filter(strings.contains) } ?? strings
        }
        if let literals {
            // Only these names: the automaton less everything but them.
            automaton = (try? automaton.intersection(CodePointAutomaton.exactly(literals))) ?? automaton.emptied
        }
        return automaton
    }

    /// `dependentRequired` and `dependentSchemas`: one object per set of trigger properties that
    /// are present, where those triggers and what they need are required and the other triggers
    /// are absent. The variants share no value, so their union is exact.
    private mutating func compileDependencies(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        let dependentRequired = schema["dependentRequired"]?.objectMembers ?? []
        let dependentSchemas = schema["dependentSchemas"]?.objectMembers ?? []
        var required = schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var base = (schema.objectMembers ?? []).filter { !["dependentRequired", "dependentSchemas", "required"].contains($0.key) }
        var extraSchemas: [SchemaValue] = []
        // Triggers that are required apply unconditionally, and may make others required in turn.
        var changed = true
        var applied = Set<String>()
        while changed {
            changed = false
            for name in required where !applied.contains(name) {
                applied.insert(name)
                changed = true
                for (trigger, names) in dependentRequired where trigger == name {
                    for needed in names.arrayValue?.compactMap(\.stringValue) ?? [] where !required.contains(needed) { required.append(needed) }
                }
                for (trigger, dependent) in dependentSchemas where trigger == name { extraSchemas.append(dependent) }
            }
        }
        let triggers = Array(Set(dependentRequired.map(\.key) + dependentSchemas.map(\.key)).subtracting(required)).sorted()
        let keyword = dependentSchemas.isEmpty ? "dependentRequired" : "dependentSchemas"
        guard triggers.count <= Self.maximumTriggers else {
            throw unsupported(keyword, at: pointer, "more than \(Self.maximumTriggers) trigger properties are not supported")
        }
        base.removeAll { $0.key == "type" }
        base.append(("type", .string("object")))
        var fragments: [Fragment] = []
        for subset in 0..<(1 << triggers.count) {
            var variantRequired = required
            var absent: [SchemaValue] = []
            var parts = extraSchemas
            for (index, trigger) in triggers.enumerated() {
                guard subset & (1 << index) != 0 else {
                    absent.append(.string(trigger))
                    continue
                }
                if !variantRequired.contains(trigger) { variantRequired.append(trigger) }
                for (name, names) in dependentRequired where name == trigger {
                    for needed in names.arrayValue?.compactMap(\.stringValue) ?? [] where !variantRequired.contains(needed) { variantRequired.append(needed) }
                }
                for (name, dependent) in dependentSchemas where name == trigger { parts.append(dependent) }
            }
            var variant = base
            variant.append(("required", .array(variantRequired.map(SchemaValue.string))))
            if !absent.isEmpty {
                let known = schema[SchemaKeywords.forbiddenNames]?.arrayValue ?? []
                variant.removeAll { $0.key == SchemaKeywords.forbiddenNames }
                variant.append((SchemaKeywords.forbiddenNames, .array(known + absent)))
            }
            // A name both required and absent: this variant has no object.
            if variantRequired.contains(where: { absent.containsInstance(.string($0)) }) { continue }
            let merged = try merge([.members(variant)] + parts, at: pointer)
            if let fragment = try compile(merged, at: pointer) { fragments.append(fragment) }
        }
        return fragments.isEmpty ? nil : try builder.alternation(fragments)
    }
}

extension CodePointAutomaton {
    /// An automaton that accepts nothing.
    var emptied: CodePointAutomaton { CodePointAutomaton(transitions: [], accepting: [], start: 0) }
}
