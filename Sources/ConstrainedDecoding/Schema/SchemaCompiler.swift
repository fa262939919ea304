import Foundation

/// Compiles a JSON Schema document into grammar templates: the root's, then one per referenced
/// definition (and one for "any JSON value" when needed).
struct SchemaCompiler {
    let document: SchemaDocument
    let options: CompileOptions
    /// The keywords of the document's draft.
    let vocabulary: Set<String>
    /// Keywords that could not be enforced and were dropped (lenient mode), as `keyword at pointer`.
    private(set) var dropped: [String] = []
    /// Keywords read as annotations (outside the draft's vocabulary), as `keyword at pointer`.
    var annotations: [String] = []
    var annotationSet: Set<String> = []
    /// The base URI that references are resolved against.
    var baseURI: String
    /// The automata of the regular expressions read so far, shared by the copies a validation
    /// makes and by every validation of one validator.
    let regexAutomata: RegexAutomata
    var builder: NFABuilder
    /// Definitions by the key they were reached with; their templates are built in turn.
    var definitionIDs: [String: Int32] = [:]
    var pendingDefinitions: [(id: Int32, pointer: String, schema: SchemaValue, base: String, depth: Int)] = []
    var definitionCount: Int32 = 1
    /// The definitions that are arrays whose items a matcher checks for repeats.
    var uniqueDefinitions: Set<Int32> = []
    /// The definitions that are the contents of `pattern` and `format` strings, with their
    /// automata: one per distinct set of string keywords, called from each string that has them.
    var stringContents: [Int32: CodePointAutomaton] = [:]
    /// The definitions that are the contents of strings constrained by their lengths alone, with
    /// those lengths: one per distinct pair, called from each string that has them.
    var countedContents: [Int32: (minimum: Int, maximum: Int?)] = [:]
    var statesUsed = 0
    /// How many references deep the merging of schemas has inlined.
    var inliningDepth = 0
    /// How many arrays and objects the value being compiled is inside (for the indented layout).
    var depth = 0

    /// The definition id of "any JSON value".
    static let anyValuePointer = "#any"
    /// The definition id of one character of a string, spelt canonically.
    static let characterPointer = "#character"
    /// The definition id of a block of ``characterBlock`` characters.
    static let blockPointer = "#block"
    /// The definition id of a run of whitespace (with ``CompileOptions/Whitespace/flexible(maximum:)``).
    static let whitespacePointer = "#whitespace"

    init(document: SchemaValue, options: CompileOptions) {
        self.init(document: SchemaDocument(root: document, defaultDraft: options.defaultDraft), options: options, regexAutomata: RegexAutomata())
    }

    /// A compiler of a document already read, sharing `regexAutomata`.
    init(document: SchemaDocument, options: CompileOptions, regexAutomata: RegexAutomata) {
        self.document = document
        self.options = options
        self.regexAutomata = regexAutomata
        vocabulary = self.document.draft.keywords
        baseURI = self.document.base(at: "")
        builder = NFABuilder(stateBudget: options.stateBudget)
    }

    mutating func compileAll() throws(SchemaError) -> [GrammarTemplate] {
        var templates: [Int32: GrammarTemplate] = [:]
        if let metaSchema = document.unknownMetaSchema {
            throw unsupported("$schema", at: "", "'\(metaSchema)' is not draft 4, 6, 7, 2019-09 or 2020-12, and its vocabularies cannot be read")
        }
        guard let root = try compile(document.root, at: "") else {
            throw .acceptsNoValue
        }
        templates[0] = finish(root)
        while let pending = pendingDefinitions.popLast() {
            builder = NFABuilder(stateBudget: options.stateBudget - statesUsed)
            depth = pending.depth
            let fragment: Fragment
            if let automaton = stringContents[pending.id] {
                fragment = try JSONStringSpelling.fragment(of: automaton, spelling: .jsonString, in: &builder)
                var template = finish(fragment)
                template.readsStringContents = true
                templates[pending.id] = template
                continue
            } else if let counts = countedContents[pending.id] {
                fragment = try countedCharacters(minimum: counts.minimum, maximum: counts.maximum)
                var template = finish(fragment)
                template.readsStringContents = true
                templates[pending.id] = template
                continue
            } else if pending.pointer == Self.anyValuePointer {
                fragment = try anyValue()
            } else if pending.pointer == Self.characterPointer {
                fragment = try characterFragment()
            } else if pending.pointer == Self.whitespacePointer, case .flexible(let maximum) = options.whitespace {
                fragment = try whitespaceRun(maximum)
            } else if pending.pointer == Self.whitespacePointer, options.whitespace == .llamaCpp {
                fragment = try llamaCppWhitespace()
            } else if pending.pointer == Self.blockPointer {
                let character = definition(Self.characterPointer, schema: .bool(true))
                fragment = try builder.repeated(minimum: Self.characterBlock, maximum: Self.characterBlock) { (builder: inout NFABuilder) throws(SchemaError) in
                    try builder.call(character)
                }
            } else if let compiled = try withBase(pending.base, { (compiler: inout SchemaCompiler) throws(SchemaError) in
                compiler.uniqueDefinitions.contains(pending.id)
                    ? try compiler.compileArray(pending.schema, at: pending.pointer)
                    : try compiler.compile(pending.schema, at: pending.pointer)
            }) {
                fragment = compiled
            } else {
                // A definition that accepts nothing: its calls lead nowhere.
                let start = try builder.newState()
                fragment = Fragment(start: start, end: try builder.newState())
            }
            var template = finish(fragment, checksUniqueness: uniqueDefinitions.contains(pending.id))
            template.readsStringCharacters = pending.pointer == Self.characterPointer || pending.pointer == Self.blockPointer
            templates[pending.id] = template
        }
        return (0..<definitionCount).map { templates[$0] ?? GrammarTemplate(nfa: CompactNFA(), start: 0, end: 0) }
    }

    private mutating func finish(_ fragment: Fragment, checksUniqueness: Bool = false) -> GrammarTemplate {
        statesUsed += builder.nfa.states.count
        return GrammarTemplate(nfa: CompactNFA(builder.nfa), start: fragment.start, end: fragment.end, checksUniqueness: checksUniqueness)
    }

    /// The id of the definition at `pointer` (or of `schema`, under `key`), scheduling its
    /// compilation the first time.
    mutating func definition(_ pointer: String, schema: SchemaValue, key: String? = nil) -> Int32 {
        let base = pointer.hasPrefix("#") || (key ?? pointer) != pointer ? baseURI : document.base(at: pointer)
        var key = key ?? pointer
        // Laid out, a definition's lines are indented for the depth it is called at.
        if isIndented, pointer != Self.characterPointer, pointer != Self.blockPointer { key += "@\(depth)" }
        if let id = definitionIDs[key] { return id }
        let id = definitionCount
        definitionCount += 1
        definitionIDs[key] = id
        pendingDefinitions.append((id, pointer, schema, base, depth))
        return id
    }

    /// Runs `body` with references resolved against `base`.
    mutating func withBase<T>(_ base: String, _ body: (inout SchemaCompiler) throws(SchemaError) -> T) throws(SchemaError) -> T {
        let saved = baseURI
        baseURI = base
        defer { baseURI = saved }
        return try body(&self)
    }

    /// A call of "any JSON value".
    mutating func anyValueCall() throws(SchemaError) -> Fragment {
        try builder.call(definition(Self.anyValuePointer, schema: .bool(true)))
    }

    func unsupported(_ keyword: String, at pointer: String, _ reason: String) -> SchemaError {
        .unsupported(keyword: keyword, pointer: pointer + "/" + keyword, reason: reason)
    }

    func invalid(_ keyword: String, at pointer: String, _ reason: String) -> SchemaError {
        .invalid(keyword: keyword, pointer: pointer + "/" + keyword, reason: reason)
    }

    /// Refuses (or, when lenient, records) a keyword that cannot be enforced.
    mutating func refuse(_ keyword: String, at pointer: String, _ reason: String) throws(SchemaError) {
        guard options.isLenient else { throw unsupported(keyword, at: pointer, reason) }
        let entry = "\(keyword) at \(pointer.isEmpty ? "/" : pointer)"
        if !dropped.contains(entry) { dropped.append(entry) }
    }

    /// The value of a count keyword (`minItems`, `maxLength`, ...), which must be a non-negative
    /// integer; `nil` when absent.
    func count(_ keyword: String, of schema: SchemaValue, at pointer: String) throws(SchemaError) -> Int? {
        guard let value = schema[keyword] else { return nil }
        guard case .number(let text) = value, let number = DecimalNumber(text), number.isInteger, !number.isNegative,
            let count = Int(number.plainText)
        else { throw invalid(keyword, at: pointer, "must be a non-negative integer") }
        return count
    }

    /// Whitespace between tokens, as the options allow.
    mutating func whitespace(_ place: LayoutPlace? = nil) throws(SchemaError) -> Fragment {
        if case .indented(let indent) = options.whitespace {
            switch place {
            case nil: return try builder.empty()
            case .colon: return try builder.literal(" ".utf8)
            case .opening, .separator: return try builder.literal(Self.lineBreak(indent: indent, levels: depth + 1).utf8)
            case .closing: return try builder.literal(Self.lineBreak(indent: indent, levels: depth).utf8)
            }
        }
        if options.whitespace == .llamaCpp { return try builder.call(definition(Self.whitespacePointer, schema: .bool(true))) }
        guard case .flexible(let maximum) = options.whitespace, maximum > 0 else { return try builder.empty() }
        // Longer runs are one shared definition, called wherever whitespace may be.
        if maximum > 4 { return try builder.call(definition(Self.whitespacePointer, schema: .bool(true))) }
        return try whitespaceRun(maximum)
    }

    /// Whitespace before a value or a comma, and after a value: none in llama.cpp's layout, which
    /// has whitespace only inside brackets and around colons and after commas.
    mutating func outerWhitespace() throws(SchemaError) -> Fragment {
        options.whitespace == .llamaCpp ? try builder.empty() : try whitespace()
    }

    /// Where in an array or object the indented layout breaks a line or adds a space.
    enum LayoutPlace {
        /// After the opening bracket.
        case opening
        /// After a comma.
        case separator
        /// Before the closing bracket.
        case closing
        /// After a member's colon.
        case colon
    }

    /// Whether the options lay the JSON out in indented lines.
    var isIndented: Bool {
        if case .indented = options.whitespace { true } else { false }
    }

    /// A line break followed by `levels` levels of `indent` spaces.
    static func lineBreak(indent: Int, levels: Int) -> String {
        "\n" + String(repeating: " ", count: indent * levels)
    }

    /// The levels of indentation beyond which the indented layout stops indenting further (a
    /// recursive type's definitions are one per level up to it).
    static let maximumLayoutDepth = 8

    /// Compiles the values inside an array or object one level deeper.
    mutating func nested<T>(_ body: (inout SchemaCompiler) throws(SchemaError) -> T) throws(SchemaError) -> T {
        let saved = depth
        depth = min(depth + 1, Self.maximumLayoutDepth)
        defer { depth = saved }
        return try body(&self)
    }

    /// The whitespace of ``CompileOptions/Whitespace/llamaCpp``: nothing, a space, or one or two
    /// line breaks and up to 20 spaces or tabs.
    mutating func llamaCppWhitespace() throws(SchemaError) -> Fragment {
        let breaks = try builder.sequence([
            try builder.literal("\n".utf8),
            try builder.repeated(minimum: 0, maximum: 1) { (builder: inout NFABuilder) throws(SchemaError) in try builder.literal("\n".utf8) },
            try builder.repeated(minimum: 0, maximum: 20) { (builder: inout NFABuilder) throws(SchemaError) in
                let start = try builder.newState()
                let end = try builder.newState()
                for byte: UInt8 in [0x20, 0x09] { builder.transition(start, byte, byte, end) }
                return Fragment(start: start, end: end)
            },
        ])
        return try builder.alternation([try builder.empty(), try builder.literal(" ".utf8), breaks])
    }

    /// Up to `maximum` whitespace characters.
    mutating func whitespaceRun(_ maximum: Int) throws(SchemaError) -> Fragment {
        try builder.repeated(minimum: 0, maximum: maximum) { (builder: inout NFABuilder) throws(SchemaError) in
            let start = try builder.newState()
            let end = try builder.newState()
            for byte: UInt8 in [0x20, 0x0A, 0x0D, 0x09] { builder.transition(start, byte, byte, end) }
            return Fragment(start: start, end: end)
        }
    }

    /// A structural token with whitespace around it (llama.cpp's layout has none before a comma).
    mutating func token(_ text: String) throws(SchemaError) -> Fragment {
        let before = text == "," ? try outerWhitespace() : try whitespace(text == "}" || text == "]" ? .closing : nil)
        let literal = try builder.literal(text.utf8)
        let after = try whitespace(text == ":" ? .colon : text == "," ? .separator : text == "{" || text == "[" ? .opening : nil)
        return try builder.sequence([before, literal, after])
    }

    // MARK: Schemas

    /// The fragment of a schema, or `nil` when the schema accepts no value.
    mutating func compile(_ value: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        switch value {
        case .bool(true): return try anyValueCall()
        case .bool(false): return nil
        case .object: break
        default: throw .invalid(keyword: "", pointer: pointer, reason: "a schema must be an object or a Boolean")
        }
        let schema = try normalized(value, at: pointer)
        let saved = baseURI
        defer { baseURI = saved }
        baseURI = document.base(inside: schema, from: baseURI)
        for (key, _) in schema.objectMembers ?? [] where !SchemaKeywords.known.contains(key) {
            try refuse(key, at: pointer, SchemaKeywords.reason(for: key))
        }
        // Listed values are checked one by one against everything else the schema says, as the
        // validator checks a final value: no complement or merge is needed.
        if schema["enum"] != nil || schema["const"] != nil { return try compileLiterals(schema, at: pointer) }
        if let allOf = schema["allOf"] {
            guard case .array(let parts) = allOf, !parts.isEmpty else {
                throw invalid("allOf", at: pointer, "must be a non-empty array of schemas")
            }
            let base = SchemaValue.members((schema.objectMembers ?? []).filter { $0.key != "allOf" })
            let merged = try merge([base] + parts, at: pointer, siblingsLast: !SchemaMerger.siblingsComeFirst(in: schema, before: ["allOf"]))
            return try compile(merged, at: pointer)
        }
        if let negated = schema["not"] { return try compileNegation(negated, schema, at: pointer) }
        if schema["if"] != nil || schema["then"] != nil || schema["else"] != nil { return try compileCondition(schema, at: pointer) }
        if let reference = schema["$ref"] { return try compileReference(reference, schema, at: pointer) }
        if let choices = schema["anyOf"] { return try compileChoice("anyOf", choices, schema, at: pointer) }
        if let choices = schema["oneOf"] { return try compileChoice("oneOf", choices, schema, at: pointer) }
        return try compileTypes(schema, at: pointer)
    }

    /// The types a schema allows: its `type`, or every type.
    func allowedTypes(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> [String] {
        guard let type = schema["type"] else { return SchemaKeywords.types }
        let names: [String]
        switch type {
        case .string(let name): names = [name]
        case .array(let values): names = values.compactMap(\.stringValue)
        default: throw invalid("type", at: pointer, "must be a type name or an array of them")
        }
        guard names.allSatisfy({ SchemaKeywords.byType[$0] != nil }) else {
            throw invalid("type", at: pointer, "must name JSON types")
        }
        // A number covers the integers.
        return names.contains("number") ? names.filter { $0 != "integer" } : names
    }

    private mutating func compileTypes(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        var fragments: [Fragment] = []
        for type in try allowedTypes(schema, at: pointer) {
            if let fragment = try compileType(type, schema, at: pointer) { fragments.append(fragment) }
        }
        return fragments.isEmpty ? nil : try builder.alternation(fragments)
    }

    mutating func compileType(_ type: String, _ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        switch type {
        case "null": return try builder.literal("null".utf8)
        case "boolean": return try builder.alternation([try builder.literal("true".utf8), try builder.literal("false".utf8)])
        case "integer", "number": return try compileNumber(schema, integerOnly: type == "integer", at: pointer)
        case "string": return try compileString(schema, at: pointer)
        case "array": return try compileArray(schema, at: pointer)
        default: return try compileObject(schema, at: pointer)
        }
    }

    /// A `$ref`: a call of the definition it names; with other constraints beside it (from
    /// 2019-09 on), the target merged with them.
    private mutating func compileReference(_ reference: SchemaValue, _ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        let siblings = (schema.objectMembers ?? []).filter { $0.key != "$ref" && !SchemaKeywords.annotations.contains($0.key) }
        guard siblings.isEmpty else { return try compile(try inlined(schema, at: pointer), at: pointer) }
        let target = try referenceTarget(reference, at: pointer)
        return try builder.call(definition(target, schema: document.value(at: target) ?? .bool(false)))
    }

    /// The pointer of the schema a `$ref` names, resolved against the current base URI.
    func referenceTarget(_ reference: SchemaValue, at pointer: String) throws(SchemaError) -> String {
        guard case .string(let text) = reference else { throw invalid("$ref", at: pointer, "must be a string") }
        switch document.resolve(text, base: baseURI) {
        case .success(let target): return target
        case .failure(.otherDocument):
            throw unsupported("$ref", at: pointer, "'\(text)' names another document; only references within the document are followed")
        case .failure(.missing):
            throw invalid("$ref", at: pointer, "'\(text)' names nothing in the document")
        }
    }

    /// A schema with its `$ref` replaced by the schema it names, merged with the keywords beside
    /// it (which apply from 2019-09 on), so that it can be merged with other schemas.
    mutating func inlined(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> SchemaValue {
        var schema = try normalized(schema, at: pointer)
        if case .array(let parts)? = schema["allOf"], let members = schema.objectMembers {
            // Its parts inlined too, so that a merge that flattens them sees their keywords.
            var inlinedParts: [SchemaValue] = []
            for (index, part) in parts.enumerated() { inlinedParts.append(try inlined(part, at: pointer + "/allOf/\(index)")) }
            schema = .members(members.map { $0.key == "allOf" ? ("allOf", .array(inlinedParts)) : $0 })
        }
        guard let reference = schema["$ref"] else { return schema }
        let target = try referenceTarget(reference, at: pointer)
        guard inliningDepth < 16 else {
            throw unsupported("$ref", at: pointer, "references merged with other constraints lead round in a cycle")
        }
        inliningDepth += 1
        defer { inliningDepth -= 1 }
        var resolved = document.value(at: target) ?? .bool(false)
        // Moved out of its resource, the target's references must not depend on the base URI.
        if document.base(at: target) != baseURI { resolved = absolutized(resolved, base: document.base(at: target)) }
        resolved = try inlined(resolved, at: target)
        let siblings = SchemaValue.members((schema.objectMembers ?? []).filter { $0.key != "$ref" })
        let first = SchemaMerger.siblingsComeFirst(in: schema, before: ["$ref"])
        return try SchemaMerger.merge(first ? [siblings, resolved] : [resolved, siblings], at: pointer)
    }

    /// The schema with every `$ref` in it made absolute, and its identifiers dropped.
    func absolutized(_ schema: SchemaValue, base inherited: String) -> SchemaValue {
        guard case .object(let members) = schema else { return schema }
        let base = document.base(inside: schema, from: inherited)
        let identifierKeyword = document.draft.identifierKeyword
        let subschemaKeywords = Dictionary(document.draft.subschemaKeywords, uniquingKeysWith: { first, _ in first })
        var result: [(key: String, value: SchemaValue)] = []
        for (key, value) in members.map({ ($0.key, $0.value) }) where key != identifierKeyword {
            if key == "$ref", let reference = value.stringValue {
                result.append((key, .string(URIReference.resolve(reference, against: base))))
                continue
            }
            switch (subschemaKeywords[key], value) {
            case (.single?, _), (.singleOrList?, .object), (.singleOrList?, .bool):
                result.append((key, absolutized(value, base: base)))
            case (.list?, .array(let elements)), (.singleOrList?, .array(let elements)):
                result.append((key, .array(elements.map { absolutized($0, base: base) })))
            case (.map?, .object(let entries)):
                result.append((key, .members(entries.map { ($0.key, absolutized($0.value, base: base)) })))
            default:
                result.append((key, value))
            }
        }
        return .members(result)
    }

    /// The merge of schemas (an `allOf`, a choice and its siblings), each brought to the 2020-12
    /// form with its references inlined, and nested `allOf`s flattened. With `siblingsLast`, the
    /// first part (the siblings of the others) is merged after them.
    mutating func merge(_ parts: [SchemaValue], at pointer: String, siblingsLast: Bool = false) throws(SchemaError) -> SchemaValue {
        // One part with constraints needs no merge: kept as it is, a `$ref` stays a call.
        let constraining = parts.filter { part in
            if case .bool(true) = part { return false }
            return part.objectMembers.map { !$0.allSatisfy { SchemaKeywords.annotations.contains($0.key) } } ?? true
        }
        if constraining.count == 1, let only = constraining.first, only["allOf"] == nil { return only }
        var prepared: [SchemaValue] = []
        func add(_ part: SchemaValue, at partPointer: String, _ compiler: inout SchemaCompiler) throws(SchemaError) {
            let part = try compiler.inlined(part, at: partPointer)
            guard case .array(let nested)? = part["allOf"], prepared.count < 256 else {
                prepared.append(part)
                return
            }
            let siblings = SchemaValue.members((part.objectMembers ?? []).filter { $0.key != "allOf" })
            let first = SchemaMerger.siblingsComeFirst(in: part, before: ["allOf"])
            if first { prepared.append(siblings) }
            for (index, element) in nested.enumerated() { try add(element, at: partPointer + "/allOf/\(index)", &compiler) }
            if !first { prepared.append(siblings) }
        }
        let order = siblingsLast ? Array(parts.indices.dropFirst()) + [0] : Array(parts.indices)
        for index in order {
            try add(parts[index], at: index == 0 ? pointer : pointer + "/allOf/\(index - 1)", &self)
        }
        return try SchemaMerger.merge(prepared, at: pointer)
    }
}
