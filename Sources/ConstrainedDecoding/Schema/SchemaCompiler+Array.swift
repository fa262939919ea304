/// Arrays.
extension SchemaCompiler {
    /// The most positions of an array whose element automata are built in place; beyond, they
    /// call a shared definition.
    static let inlineElementLimit = 16

    mutating func compileArray(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        let prefix = schema["prefixItems"]?.arrayValue ?? []
        if case .bool(true)? = schema["uniqueItems"], (try count("maxItems", of: schema, at: pointer)).map({ $0 > 1 }) ?? true {
            if prefix.isEmpty, schema["contains"] == nil, let literals = try uniqueCandidates(schema["items"] ?? .bool(true), at: pointer + "/items") {
                return try compileUniqueLiterals(literals, schema, at: pointer)
            }
            if try holdsOnlyStrings(schema, at: pointer) {
                // Its own template, whose items a matcher compares as they end.
                let checked = SchemaValue.members((schema.objectMembers ?? []).filter { $0.key != "uniqueItems" })
                let id = definition(pointer, schema: checked, key: pointer + "#unique:" + checked.jsonString)
                uniqueDefinitions.insert(id)
                return try builder.call(id)
            }
            try refuse("uniqueItems", at: pointer, "uniqueness is enforced over strings and over a few listed values (enum, const, boolean, null items) only")
        }
        if let contains = schema["contains"] {
            let minimumMatches = try count("minContains", of: schema, at: pointer) ?? 1
            if minimumMatches > 0 || schema["maxContains"] != nil {
                return try compileContains(contains, minimumMatches: minimumMatches, schema, at: pointer)
            }
        }
        let rest = schema["items"] ?? .bool(true)
        let minimum = try count("minItems", of: schema, at: pointer) ?? 0
        var maximum = try count("maxItems", of: schema, at: pointer)
        if case .bool(false) = rest { maximum = min(maximum ?? prefix.count, prefix.count) }
        // A `false` prefix element ends the array before it.
        if let impossible = prefix.firstIndex(where: { $0.isSameInstance(as: .bool(false)) }) { maximum = min(maximum ?? impossible, impossible) }
        guard minimum <= 1000, (maximum ?? 0) <= 1000 else {
            throw unsupported(maximum ?? 0 > 1000 ? "maxItems" : "minItems", at: pointer, "counts above 1000 are not supported")
        }
        if let maximum, maximum < minimum { return nil }

        func elementSchema(_ index: Int) -> (SchemaValue, String) {
            index < prefix.count ? (prefix[index], pointer + "/prefixItems/\(index)") : (rest, pointer + "/items")
        }

        // Many positions of the same element call one definition of it, once a first copy
        // built in place has shown that it accepts some value.
        let sharesElements = (maximum ?? 0) > Self.inlineElementLimit
        var restAcceptsSome: Bool?
        func element(_ index: Int, _ compiler: inout SchemaCompiler) throws(SchemaError) -> Fragment? {
            let (schema, elementPointer) = elementSchema(index)
            if sharesElements, index >= prefix.count, let known = restAcceptsSome, case .object = schema {
                guard known else { return nil }
                return try compiler.builder.call(compiler.nested { $0.definition(elementPointer, schema: schema, key: elementPointer + "#" + schema.jsonString) })
            }
            let value = try compiler.nested { (compiler: inout SchemaCompiler) throws(SchemaError) in try compiler.compile(schema, at: elementPointer) }
            if index >= prefix.count { restAcceptsSome = value != nil }
            return value
        }

        // Built from the end: after `index` elements, either close, or ", element" and go on.
        func tail(_ index: Int, _ compiler: inout SchemaCompiler) throws(SchemaError) -> Fragment? {
            let canStop = index >= minimum
            let canGo = maximum.map { index < $0 } ?? true
            var options: [Fragment] = []
            if canStop { options.append(try compiler.builder.empty()) }
            if canGo {
                if maximum == nil, index >= minimum, index >= prefix.count {
                    // From here on the same element repeats: a loop.
                    let (element, elementPointer) = elementSchema(index)
                    if let value = try compiler.nested({ (compiler: inout SchemaCompiler) throws(SchemaError) in try compiler.compile(element, at: elementPointer) }) {
                        let item = try compiler.builder.sequence([try compiler.token(","), value])
                        return try compiler.builder.star(item)
                    }
                } else {
                    if let value = try element(index, &compiler), let after = try tail(index + 1, &compiler) {
                        options.append(try compiler.builder.sequence([try compiler.token(","), value, after]))
                    }
                }
            }
            return options.isEmpty ? nil : try compiler.builder.alternation(options)
        }

        var nonEmpty: Fragment?
        if maximum.map({ $0 > 0 }) ?? true, let value = try element(0, &self), let after = try tail(1, &self) {
            nonEmpty = try builder.sequence([try whitespace(.opening), value, after, try whitespace(.closing)])
        }
        // An empty array is `[]` in every layout.
        var bodies: [Fragment] = nonEmpty.map { [$0] } ?? []
        if minimum == 0 { bodies.append(try whitespace()) }
        guard !bodies.isEmpty else { return nil }
        return try builder.sequence([try builder.literal("[".utf8), try builder.alternation(bodies), try builder.literal("]".utf8)])
    }

    /// The most distinct values `uniqueItems` is enforced over (the automaton tracks which are used).
    static let maximumUniqueValues = 8

    /// The values an item may take when they are few and listed (`enum`, `const`, `boolean`,
    /// `null`), spelt canonically; `nil` otherwise.
    private mutating func uniqueCandidates(_ items: SchemaValue, at pointer: String) throws(SchemaError) -> [String]? {
        guard case .object = items else { return nil }
        let schema = try inlined(items, at: pointer)
        let keys = Set((schema.objectMembers ?? []).map(\.key)).subtracting(SchemaKeywords.annotations)
        guard keys.isSubset(of: ["enum", "const", "type"]) else { return nil }
        let types = try allowedTypes(schema, at: pointer)
        var values: [SchemaValue]
        if let constant = schema["const"] {
            values = [constant]
        } else if let choices = schema["enum"]?.arrayValue {
            values = choices
        } else if Set(types).isSubset(of: ["boolean", "null"]) {
            values = (types.contains("boolean") ? [.bool(true), .bool(false)] : []) + (types.contains("null") ? [.null] : [])
        } else {
            return nil
        }
        if let choices = schema["enum"]?.arrayValue { values = values.filter { choices.containsInstance($0) } }
        var spellings: [String] = []
        var seen: [SchemaValue] = []
        for value in values where Self.hasType(value, types) && !seen.containsInstance(value) {
            seen.append(value)
            spellings.append(spelling(of: value, depth: depth + 1))
        }
        return spellings.count <= Self.maximumUniqueValues ? spellings : nil
    }

    /// Whether every item an array may hold is a string, so that a matcher can compare items as
    /// they end.
    private mutating func holdsOnlyStrings(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Bool {
        for (index, item) in (schema["prefixItems"]?.arrayValue ?? []).enumerated() {
            guard try acceptsOnlyStrings(item, at: pointer + "/prefixItems/\(index)") else { return false }
        }
        return try acceptsOnlyStrings(schema["items"] ?? .bool(true), at: pointer + "/items")
    }

    /// Whether `schema` accepts strings only (or nothing): by its type, its listed values, or
    /// alternatives and parts that do.
    private mutating func acceptsOnlyStrings(_ schema: SchemaValue, at pointer: String, depth: Int = 0) throws(SchemaError) -> Bool {
        switch schema {
        case .bool(let acceptsAll): return !acceptsAll
        case .object: break
        default: return false
        }
        guard depth < 8 else { return false }
        let flat = try inlined(schema, at: pointer)
        if let constant = flat["const"] { return constant.stringValue != nil }
        if let values = flat["enum"]?.arrayValue, values.allSatisfy({ $0.stringValue != nil }) { return true }
        if flat["type"] != nil, try allowedTypes(flat, at: pointer) == ["string"] { return true }
        for key in ["anyOf", "oneOf"] {
            guard let alternatives = flat[key]?.arrayValue, !alternatives.isEmpty else { continue }
            var all = true
            for (index, alternative) in alternatives.enumerated() where all {
                all = try acceptsOnlyStrings(alternative, at: pointer + "/\(key)/\(index)", depth: depth + 1)
            }
            if all { return true }
        }
        for (index, part) in (flat["allOf"]?.arrayValue ?? []).enumerated() {
            if try acceptsOnlyStrings(part, at: pointer + "/allOf/\(index)", depth: depth + 1) { return true }
        }
        return false
    }

    /// An array of distinct values from a short list: the automaton's state is the set of values
    /// used so far, and its size counts the items for `minItems`/`maxItems`.
    private mutating func compileUniqueLiterals(_ literals: [String], _ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        let minimum = try count("minItems", of: schema, at: pointer) ?? 0
        let maximum = min(try count("maxItems", of: schema, at: pointer) ?? literals.count, literals.count)
        guard minimum <= maximum else { return nil }
        let open = try builder.sequence([try builder.literal("[".utf8), try whitespace(.opening)])
        let close = try builder.sequence([try whitespace(.closing), try builder.literal("]".utf8)])
        var states: [Int: Int32] = [0: open.end]
        for used in 0..<(1 << literals.count) {
            guard let from = states[used] else { continue }
            let size = used.nonzeroBitCount
            if size >= minimum { builder.epsilon(from, close.start) }
            guard size < maximum else { continue }
            for (index, literal) in literals.enumerated() where used & (1 << index) == 0 {
                let target = try laneState(used | (1 << index), &states)
                try connectItem(try builder.literal(literal.utf8), from: from, to: target, isFirst: size == 0)
            }
        }
        return Fragment(start: open.start, end: close.end)
    }

    /// The most (items, matches) pairs `contains` counts through.
    static let maximumContainsLanes = 64

    /// `contains` with `minContains`/`maxContains`: each item either matches the `contains`
    /// schema or (with `maxContains`) its complement, and the automaton counts items and matches
    /// in lanes.
    private mutating func compileContains(_ contains: SchemaValue, minimumMatches: Int, _ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        let containsPointer = pointer + "/contains"
        // What is left when `contains` is refused (and dropped, when lenient).
        let withoutContains = SchemaValue.members((schema.objectMembers ?? []).filter { !["contains", "minContains", "maxContains"].contains($0.key) })
        guard schema["prefixItems"] == nil else {
            try refuse("contains", at: pointer, "contains beside prefixItems is not supported")
            return try compile(withoutContains, at: pointer)
        }
        // Without a maximum, an item that matches may be counted as one that need not: "at least"
        // needs no complement.
        let complementOfContains: [SchemaValue]? = schema["maxContains"] == nil ? [.bool(true)] : try complement(contains, at: containsPointer)
        guard let others = complementOfContains else {
            try refuse("contains", at: pointer, "the complement of its schema cannot be built")
            return try compile(withoutContains, at: pointer)
        }
        let items = schema["items"] ?? .bool(true)
        let minimumItems = try count("minItems", of: schema, at: pointer) ?? 0
        let maximumItems = try count("maxItems", of: schema, at: pointer)
        let maximumMatches = try count("maxContains", of: schema, at: pointer)
        let itemCap = max(minimumItems, maximumItems ?? 0, 1)
        let matchCap = max(minimumMatches, maximumMatches ?? 0)
        guard (itemCap + 1) * (matchCap + 1) <= Self.maximumContainsLanes else {
            throw unsupported("contains", at: pointer, "counting items and matches needs more than \(Self.maximumContainsLanes) lanes")
        }
        // An item that matches, and the kinds of item that do not.
        let matching: SchemaValue
        var missing: [SchemaValue] = []
        do {
            matching = try merge([items, contains], at: containsPointer)
            for other in others { missing.append(try merge([items, other], at: containsPointer)) }
        } catch {
            guard case .unsupported(_, _, let reason) = error else { throw error }
            try refuse("contains", at: pointer, "its schema cannot be merged with the items': \(reason)")
            return try compile(withoutContains, at: pointer)
        }
        func call(_ item: SchemaValue, _ compiler: inout SchemaCompiler) throws(SchemaError) -> Fragment {
            try compiler.builder.call(compiler.nested { $0.definition(containsPointer, schema: item, key: containsPointer + "#" + item.jsonString) })
        }
        let open = try builder.sequence([try builder.literal("[".utf8), try whitespace(.opening)])
        let close = try builder.sequence([try whitespace(.closing), try builder.literal("]".utf8)])
        var lanes: [Int: Int32] = [0: open.end]
        var closes = false
        func lane(_ items: Int, _ matches: Int) -> Int { items * (matchCap + 1) + matches }
        for itemCount in 0...itemCap {
            for matchCount in 0...matchCap {
                guard let from = lanes[lane(itemCount, matchCount)] else { continue }
                if itemCount >= minimumItems && matchCount >= minimumMatches {
                    builder.epsilon(from, close.start)
                    closes = true
                }
                guard maximumItems.map({ itemCount < $0 }) ?? true else { continue }
                var moves: [(SchemaValue, Int)] = missing.map { ($0, matchCount) }
                if maximumMatches.map({ matchCount < $0 }) ?? true { moves.append((matching, min(matchCount + 1, matchCap))) }
                for (item, nextMatches) in moves {
                    let target = try laneState(lane(min(itemCount + 1, itemCap), nextMatches), &lanes)
                    try connectItem(try call(item, &self), from: from, to: target, isFirst: itemCount == 0)
                }
            }
        }
        return closes ? Fragment(start: open.start, end: close.end) : nil
    }

    /// The state of a lane, made the first time it is reached.
    private mutating func laneState(_ key: Int, _ lanes: inout [Int: Int32]) throws(SchemaError) -> Int32 {
        if let known = lanes[key] { return known }
        let created = try builder.newState()
        lanes[key] = created
        return created
    }

    /// An item between two states, after a comma unless it is the first.
    private mutating func connectItem(_ value: Fragment, from: Int32, to: Int32, isFirst: Bool) throws(SchemaError) {
        let item = try builder.sequence((isFirst ? [] : [try token(",")]) + [value])
        builder.epsilon(from, item.start)
        builder.epsilon(item.end, to)
    }
}
