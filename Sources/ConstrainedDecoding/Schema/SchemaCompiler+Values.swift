/// Choices, literal values, numbers and "any value".
extension SchemaCompiler {
    /// `anyOf` and `oneOf`: the alternatives, each joined with the schema's other keywords.
    /// A `oneOf` whose alternatives may overlap is kept to the types where they cannot (when in
    /// the others every value matches two of them), or enforced through their complements
    /// (``compileExclusiveChoice(_:siblings:siblingsFirst:at:)``), or refused.
    mutating func compileChoice(_ keyword: String, _ choices: SchemaValue, _ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        guard case .array(let alternatives) = choices, !alternatives.isEmpty else {
            throw invalid(keyword, at: pointer, "must be a non-empty array of schemas")
        }
        // The other constraints, still marked as in the 2020-12 form (read again, the keywords
        // that form took from an older draft would be annotations).
        var constraints = (schema.objectMembers ?? []).filter { $0.key != keyword && !SchemaKeywords.annotations.contains($0.key) }
        var siblings = SchemaValue.members(constraints + [(SchemaKeywords.normalizedMarker, .bool(true))])
        let siblingsFirst = SchemaMerger.siblingsComeFirst(in: schema, before: [keyword])
        if keyword == "oneOf", !areDisjoint(alternatives, within: siblings, at: pointer) {
            if let families = familiesOfExclusiveChoice(alternatives, within: siblings, at: pointer) {
                // Only the types where the alternatives cannot meet are left: a union there.
                guard !families.isEmpty else { return nil }
                constraints.append(("allOf", .array([.members([("type", .array(families.map(SchemaValue.string)))])])))
                siblings = .members(constraints + [(SchemaKeywords.normalizedMarker, .bool(true))])
            } else {
                do {
                    return try compileExclusiveChoice(alternatives, siblings: siblings, siblingsFirst: siblingsFirst, at: pointer)
                } catch {
                    guard options.isLenient, case .unsupported(keyword: "oneOf", _, let reason) = error else { throw error }
                    try refuse("oneOf", at: pointer, reason)
                }
            }
        }
        var fragments: [Fragment] = []
        for (index, alternative) in alternatives.enumerated() {
            let branchPointer = pointer + "/\(keyword)/\(index)"
            let branch = constraints.isEmpty ? alternative : try merge([siblings, alternative], at: branchPointer, siblingsLast: !siblingsFirst)
            if let fragment = try compile(branch, at: branchPointer) { fragments.append(fragment) }
        }
        return fragments.isEmpty ? nil : try builder.alternation(fragments)
    }

    static func family(_ value: SchemaValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// `enum` and `const`: the values, spelled canonically, that also meet the schema's other
    /// keywords (checked value by value, as the validator checks a final value).
    mutating func compileLiterals(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        var values: [SchemaValue]
        if let constant = schema["const"] {
            values = [constant]
            if let choices = schema["enum"]?.arrayValue { values = values.filter { choices.containsInstance($0) } }
        } else if case .array(let choices)? = schema["enum"] {
            values = choices
        } else {
            throw invalid("enum", at: pointer, "must be an array")
        }
        // Other constraints are checked on each value now: only the values that meet them stay.
        let constraints = (schema.objectMembers ?? []).filter { !["enum", "const"].contains($0.key) }
        if constraints.contains(where: { !SchemaKeywords.annotations.contains($0.key) && $0.key != "type" }) {
            var run = ValidationRun(compiler: self)
            values = values.filter { run.check($0, against: .members(constraints), schemaPointer: pointer, instancePointer: "").violation == nil }
        }
        let types = try allowedTypes(schema, at: pointer)
        var fragments: [Fragment] = []
        // Scalars are told apart by their canonical spelling, in constant time; arrays and
        // objects (whose members may come in any order) by comparing instances.
        var seenScalars = Set<String>()
        var seenComposites: [SchemaValue] = []
        for value in values where Self.hasType(value, types) {
            switch value {
            case .array, .object:
                guard !seenComposites.containsInstance(value) else { continue }
                seenComposites.append(value)
            default:
                guard seenScalars.insert(Self.canonicalJSON(value)).inserted else { continue }
            }
            fragments.append(try builder.literal(spelling(of: value, depth: depth).utf8))
        }
        return fragments.isEmpty ? nil : try builder.alternation(fragments)
    }

    static func hasType(_ value: SchemaValue, _ types: [String]) -> Bool {
        switch value {
        case .null: return types.contains("null")
        case .bool: return types.contains("boolean")
        case .number(let text):
            return types.contains("number") || (types.contains("integer") && DecimalNumber(text)?.isInteger == true)
        case .string: return types.contains("string")
        case .array: return types.contains("array")
        case .object: return types.contains("object")
        }
    }

    /// The canonical spelling of a value: compact, or with `indent`, laid out as a value `depth`
    /// arrays and objects deep; numbers in plain decimal, strings with only the escapes JSON requires.
    static func canonicalJSON(_ value: SchemaValue, indent: Int? = nil, depth: Int = 0) -> String {
        let levels = min(depth, maximumLayoutDepth)
        let inner = indent.map { lineBreak(indent: $0, levels: levels + 1) } ?? ""
        let outer = indent.map { lineBreak(indent: $0, levels: levels) } ?? ""
        func nested(_ value: SchemaValue) -> String { inner + canonicalJSON(value, indent: indent, depth: depth + 1) }
        switch value {
        case .number(let number): return DecimalNumber(number)?.plainText ?? number.text
        case .array(let elements) where !elements.isEmpty: return "[" + elements.map(nested).joined(separator: ",") + outer + "]"
        case .object(let members) where !members.isEmpty:
            let colon = indent == nil ? ":" : ": "
            return "{" + members.map { inner + SchemaValue.quoted($0.key) + colon + canonicalJSON($0.value, indent: indent, depth: depth + 1) }.joined(separator: ",") + outer + "}"
        case .array: return "[]"
        case .object: return "{}"
        default: return value.jsonString
        }
    }

    /// The canonical spelling of a value at the depth being compiled, in the options' layout.
    func spelling(of value: SchemaValue, depth: Int) -> String {
        guard case .indented(let indent) = options.whitespace else { return Self.canonicalJSON(value) }
        return Self.canonicalJSON(value, indent: indent, depth: depth)
    }

    mutating func compileNumber(_ schema: SchemaValue, integerOnly: Bool, at pointer: String) throws(SchemaError) -> Fragment? {
        var language = NumberLanguage(integerOnly: integerOnly)
        if schema[SchemaKeywords.notInteger] != nil {
            if integerOnly { return nil }
            language.notInteger = true
        }
        func number(_ keyword: String) throws(SchemaError) -> DecimalNumber? {
            guard let value = schema[keyword] else { return nil }
            guard case .number(let text) = value, let number = DecimalNumber(text) else {
                throw invalid(keyword, at: pointer, "must be a number")
            }
            return number
        }
        language.minimum = try number("minimum")
        if let exclusive = try number("exclusiveMinimum"), language.minimum.map({ exclusive >= $0 }) ?? true {
            language.minimum = exclusive
            language.exclusiveMinimum = true
        }
        language.maximum = try number("maximum")
        if let exclusive = try number("exclusiveMaximum"), language.maximum.map({ exclusive <= $0 }) ?? true {
            language.maximum = exclusive
            language.exclusiveMaximum = true
        }
        if let divisor = try number("multipleOf") {
            guard divisor > DecimalNumber(0) else { throw invalid("multipleOf", at: pointer, "must be greater than 0") }
            // Every integer is a multiple of 1, and of any divisor of 1 whose inverse is an integer.
            if !(integerOnly && divisor == DecimalNumber(1)) { language.multipleOf = divisor }
        }
        if let minimum = language.minimum, let maximum = language.maximum,
            minimum > maximum || (minimum == maximum && (language.exclusiveMinimum || language.exclusiveMaximum))
        {
            return nil
        }
        do {
            return try language.fragment(in: &builder, pointer: pointer)
        } catch SchemaError.invalid {
            return nil
        }
    }

    /// An array or object of any members: `open`, then nothing or the `members` in lines, then `close`.
    private mutating func container(_ open: String, _ members: [Fragment], _ close: String) throws(SchemaError) -> Fragment {
        let filled = try builder.sequence([try whitespace(.opening)] + members + [try whitespace(.closing)])
        let inside = try builder.alternation([filled, try whitespace()])
        return try builder.sequence([try outerWhitespace(), try builder.literal(open.utf8), inside, try builder.literal(close.utf8), try outerWhitespace()])
    }

    /// Any JSON value, as the body of the "any value" definition (which calls itself to nest).
    mutating func anyValue() throws(SchemaError) -> Fragment {
        let scalars = [
            try builder.literal("null".utf8), try builder.literal("true".utf8), try builder.literal("false".utf8),
            try NumberLanguage(integerOnly: false).fragment(in: &builder, pointer: ""),
            try anyString(),
        ]
        func value(_ compiler: inout SchemaCompiler) throws(SchemaError) -> Fragment { try compiler.anyValueCall() }
        // Arrays: [ value (, value)* ]
        let more = try builder.star(try builder.sequence([try token(","), try nested(value)]))
        let array = try container("[", [try nested(value), more], "]")
        // Objects: { "key": value (, "key": value)* }
        let member = try builder.sequence([try anyString(), try token(":"), try nested(value)])
        let moreMembers = try builder.star(try builder.sequence([try token(","), try anyString(), try token(":"), try nested(value)]))
        let object = try container("{", [member, moreMembers], "}")
        return try builder.alternation(scalars + [array, object])
    }

    /// Any string, quotes included.
    mutating func anyString() throws(SchemaError) -> Fragment {
        let open = try builder.literal([UInt8(ascii: "\"")])
        let character = try characterFragment()
        builder.markAbsorbingPlainText(character.start)
        let close = try builder.literal([UInt8(ascii: "\"")])
        return try builder.sequence([open, try builder.star(character), close])
    }

    /// One character of a string, spelled canonically.
    mutating func characterFragment() throws(SchemaError) -> Fragment {
        let start = try builder.newState()
        let end = try builder.newState()
        try JSONStringSpelling.addCharacters(.all, from: start, to: end, in: &builder)
        return Fragment(start: start, end: end)
    }
}
