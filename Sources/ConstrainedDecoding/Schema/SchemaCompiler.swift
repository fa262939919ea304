import Foundation

/// Compiles a JSON Schema document into grammar templates: the root's, then one per referenced
/// definition (and one for "any JSON value" when needed).
struct SchemaCompiler {
    let document: SchemaValue
    let options: CompileOptions
    private(set) var ignored: [String] = []
    var builder: NFABuilder
    /// Definitions by the pointer they were reached with; their templates are built in turn.
    var definitionIDs: [String: Int32] = [:]
    var pendingDefinitions: [(id: Int32, pointer: String, schema: SchemaValue)] = []
    var definitionCount: Int32 = 1
    var statesUsed = 0

    /// The definition id of "any JSON value".
    static let anyValuePointer = "#any"

    init(document: SchemaValue, options: CompileOptions) {
        self.document = document
        self.options = options
        builder = NFABuilder(stateBudget: options.stateBudget)
    }

    mutating func compileAll() throws(SchemaError) -> [GrammarTemplate] {
        var templates: [Int32: GrammarTemplate] = [:]
        guard let root = try compile(document, at: "") else {
            throw .invalid(keyword: "", pointer: "", reason: "the schema accepts no value")
        }
        templates[0] = finish(root)
        while let pending = pendingDefinitions.popLast() {
            builder = NFABuilder(stateBudget: options.stateBudget - statesUsed)
            let fragment: Fragment
            if pending.pointer == Self.anyValuePointer {
                fragment = try anyValue()
            } else if let compiled = try compile(pending.schema, at: pending.pointer) {
                fragment = compiled
            } else {
                // A definition that accepts nothing: its calls lead nowhere.
                let start = try builder.newState()
                fragment = Fragment(start: start, end: try builder.newState())
            }
            templates[pending.id] = finish(fragment)
        }
        return (0..<definitionCount).map { templates[$0] ?? GrammarTemplate(nfa: CompactNFA(), start: 0, end: 0) }
    }

    private mutating func finish(_ fragment: Fragment) -> GrammarTemplate {
        statesUsed += builder.nfa.states.count
        return GrammarTemplate(nfa: CompactNFA(builder.nfa), start: fragment.start, end: fragment.end)
    }

    /// The id of the definition at `pointer`, scheduling its compilation the first time.
    mutating func definition(_ pointer: String, schema: SchemaValue) -> Int32 {
        if let id = definitionIDs[pointer] { return id }
        let id = definitionCount
        definitionCount += 1
        definitionIDs[pointer] = id
        pendingDefinitions.append((id, pointer, schema))
        return id
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
        ignored.append("\(keyword) at \(pointer.isEmpty ? "/" : pointer)")
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
    mutating func whitespace() throws(SchemaError) -> Fragment {
        guard case .flexible(let maximum) = options.whitespace, maximum > 0 else { return try builder.empty() }
        return try builder.repeated(minimum: 0, maximum: maximum) { (builder: inout NFABuilder) throws(SchemaError) in
            let start = try builder.newState()
            let end = try builder.newState()
            for byte: UInt8 in [0x20, 0x0A, 0x0D, 0x09] { builder.transition(start, byte, byte, end) }
            return Fragment(start: start, end: end)
        }
    }

    /// A structural token with whitespace around it.
    mutating func token(_ text: String) throws(SchemaError) -> Fragment {
        let before = try whitespace()
        let literal = try builder.literal(text.utf8)
        let after = try whitespace()
        return try builder.sequence([before, literal, after])
    }

    // MARK: Schemas

    /// The fragment of a schema, or `nil` when the schema accepts no value.
    mutating func compile(_ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        switch schema {
        case .bool(true): return try anyValueCall()
        case .bool(false): return nil
        case .object(let members):
            for (key, _) in members where !SchemaKeywords.known.contains(key) {
                // The root's `$id` only names the document; local references are unaffected.
                if key == "$id", pointer.isEmpty { continue }
                try refuse(key, at: pointer, SchemaKeywords.reason(for: key))
            }
            if let dialect = schema["$schema"], !["https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#"].contains(dialect.stringValue ?? "") {
                throw unsupported("$schema", at: pointer, "only Draft 2020-12 is supported, and its vocabularies are what this compiler enforces")
            }
            if let allOf = schema["allOf"] {
                guard case .array(let parts) = allOf, !parts.isEmpty else {
                    throw invalid("allOf", at: pointer, "must be a non-empty array of schemas")
                }
                let base = SchemaValue.object(members.filter { $0.key != "allOf" })
                return try compile(try SchemaMerger.merge([base] + parts, at: pointer), at: pointer)
            }
            if schema["not"] != nil { try refuse("not", at: pointer, "negation cannot be enforced while generating") }
            if let reference = schema["$ref"] { return try compileReference(reference, schema, at: pointer) }
            if let choices = schema["anyOf"] { return try compileChoice("anyOf", choices, schema, at: pointer) }
            if let choices = schema["oneOf"] { return try compileChoice("oneOf", choices, schema, at: pointer) }
            if schema["enum"] != nil || schema["const"] != nil { return try compileLiterals(schema, at: pointer) }
            return try compileTypes(schema, at: pointer)
        default:
            throw .invalid(keyword: "", pointer: pointer, reason: "a schema must be an object or a Boolean")
        }
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
        guard !names.isEmpty, names.allSatisfy({ SchemaKeywords.byType[$0] != nil }) else {
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

    private mutating func compileReference(_ reference: SchemaValue, _ schema: SchemaValue, at pointer: String) throws(SchemaError) -> Fragment? {
        guard case .string(let text) = reference else { throw invalid("$ref", at: pointer, "must be a string") }
        for (key, _) in schema.objectMembers ?? [] where key != "$ref" && !SchemaKeywords.annotations.contains(key) {
            try refuse(key, at: pointer, "constraints beside $ref are not supported")
        }
        guard text == "#" || text.hasPrefix("#/") else {
            throw unsupported("$ref", at: pointer, "only references within the document ('#' or '#/…') are supported, not '\(text)'")
        }
        let target = try resolve(text, at: pointer)
        return try builder.call(definition(text, schema: target))
    }

    /// The schema a local JSON pointer reference names.
    private func resolve(_ reference: String, at pointer: String) throws(SchemaError) -> SchemaValue {
        var current = document
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) where !reference.dropFirst(2).isEmpty {
            let key = String(token).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                .removingPercentEncoding ?? String(token)
            if let member = current[key] {
                current = member
            } else if case .array(let elements) = current, let index = Int(key), elements.indices.contains(index) {
                current = elements[index]
            } else {
                throw invalid("$ref", at: pointer, "'\(reference)' names nothing in the document")
            }
        }
        return current
    }
}
