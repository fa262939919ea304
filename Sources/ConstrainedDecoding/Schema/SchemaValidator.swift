import Foundation
import PartialJSON

/// Checks a whole JSON value against a whole JSON Schema, every keyword of its draft included
/// (`uniqueItems`, `contains`, `unevaluatedProperties`, ...), as the standard defines them.
///
/// The constrained decoder enforces a schema while generating; in lenient mode it drops what it
/// cannot enforce (``CompiledGrammar/droppedKeywords``), and this check on the final value
/// reports an output that breaks a dropped keyword, so that it is never returned as valid.
///
/// A validator reads its schema once (drafts, identifiers, anchors) and keeps the automata of the
/// patterns it meets, for every value it checks afterwards, from any thread.
public struct SchemaValidator: Sendable {
    let document: SchemaValue
    let options: CompileOptions
    /// The document's places (resources, anchors, bases), found once.
    private let reading: SchemaDocument
    private let regexAutomata = RegexAutomata()

    /// Reads a schema given as JSON text (any draft, as its `$schema` says).
    public init(jsonSchema: String, options: CompileOptions = CompileOptions()) throws(SchemaError) {
        try self.init(jsonSchema: try SchemaValue.schemaDocument(jsonSchema), options: options)
    }

    /// A validator of a JSON Schema given as a parsed value.
    public init(jsonSchema: JSONValue, options: CompileOptions = CompileOptions()) throws(SchemaError) {
        document = try SchemaValue.schemaDocument(jsonSchema)
        var lenient = options
        lenient.isLenient = true
        self.options = lenient
        reading = SchemaDocument(root: document, defaultDraft: lenient.defaultDraft)
    }

    /// The first keyword the JSON text `instance` breaks, or `nil` when it is valid.
    public func violation(in instance: String) -> SchemaViolation? {
        let value: SchemaValue
        do {
            value = try SchemaValue.schemaDocument(instance)
        } catch {
            return SchemaViolation(keyword: "", schemaPointer: "", instancePointer: "", reason: "the value is not JSON: \(error)")
        }
        return violation(in: value)
    }

    /// The first keyword the value `instance` breaks, or `nil` when it is valid.
    public func violation(in value: JSONValue) -> SchemaViolation? {
        var run = ValidationRun(compiler: SchemaCompiler(document: reading, options: options, regexAutomata: regexAutomata))
        return run.check(value, against: document, schemaPointer: "", instancePointer: "").violation
    }
}

/// Why a value does not match its schema: the keyword, where it is in the schema and in the value.
public struct SchemaViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The keyword the value breaks, e.g. `uniqueItems`.
    public let keyword: String
    /// The JSON pointer of the schema holding the keyword.
    public let schemaPointer: String
    /// The JSON pointer of the part of the value at fault.
    public let instancePointer: String
    public let reason: String

    public var description: String {
        "the value at \(instancePointer.isEmpty ? "/" : instancePointer) breaks '\(keyword)' (schema \(schemaPointer.isEmpty ? "/" : schemaPointer)): \(reason)"
    }
}

/// One validation: the compiler lends its reading of drafts and references.
struct ValidationRun {
    var compiler: SchemaCompiler
    var depth = 0

    /// The outcome of one schema on one value: the violation, and the member names and array
    /// positions the schema evaluated (for `unevaluatedProperties` and `unevaluatedItems`).
    struct Outcome {
        var violation: SchemaViolation?
        var properties: Set<String> = []
        var items: Set<Int> = []

        static let valid = Outcome()

        mutating func absorb(_ other: Outcome) {
            properties.formUnion(other.properties)
            items.formUnion(other.items)
        }
    }

    mutating func check(_ value: SchemaValue, against raw: SchemaValue, schemaPointer: String, instancePointer: String) -> Outcome {
        func fail(_ keyword: String, _ reason: String) -> Outcome {
            Outcome(violation: SchemaViolation(keyword: keyword, schemaPointer: schemaPointer, instancePointer: instancePointer, reason: reason))
        }
        switch raw {
        case .bool(true): return .valid
        case .bool(false): return fail("false", "the schema allows no value")
        case .object: break
        default: return fail("", "a schema must be an object or a Boolean")
        }
        guard depth < 200 else { return fail("$ref", "references nest too deeply") }
        depth += 1
        defer { depth -= 1 }
        let schema: SchemaValue
        do {
            schema = try compiler.normalized(raw, at: schemaPointer)
        } catch {
            return fail("", "\(error)")
        }
        let savedBase = compiler.baseURI
        defer { compiler.baseURI = savedBase }
        compiler.baseURI = compiler.document.base(inside: schema, from: compiler.baseURI)
        var outcome = Outcome()
        func sub(_ keyword: String) -> String { schemaPointer + "/" + keyword }
        func at(_ token: String) -> String { instancePointer + "/" + SchemaDocument.escape(token) }

        if let reference = schema["$ref"] {
            let target: String
            do {
                target = try compiler.referenceTarget(reference, at: schemaPointer)
            } catch {
                return fail("$ref", "\(error)")
            }
            let base = compiler.document.base(at: target)
            let saved = compiler.baseURI
            compiler.baseURI = base
            let result = check(value, against: compiler.document.value(at: target) ?? .bool(false), schemaPointer: target, instancePointer: instancePointer)
            compiler.baseURI = saved
            if result.violation != nil { return result }
            outcome.absorb(result)
        }
        if let types = schema["type"] {
            let names = types.stringValue.map { [$0] } ?? types.arrayValue?.compactMap(\.stringValue) ?? []
            if !names.contains(where: { Self.hasType(value, $0) }) { return fail("type", "is not of type \(names.joined(separator: " or "))") }
        }
        if let choices = schema["enum"]?.arrayValue, !choices.containsInstance(value) { return fail("enum", "is none of the listed values") }
        if let constant = schema["const"], !constant.isSameInstance(as: value) { return fail("const", "is not the constant") }
        for (keyword, values) in [(SchemaKeywords.notValues, schema[SchemaKeywords.notValues])] {
            if let values = values?.arrayValue, values.containsInstance(value) { return fail(keyword, "is an excluded value") }
        }

        switch value {
        case .number(let text):
            if let problem = Self.numberProblem(text.text, schema) { return fail(problem.keyword, problem.reason) }
            if schema[SchemaKeywords.notInteger] != nil, DecimalNumber(text)?.isInteger == true { return fail("type", "is an integer") }
        case .string(let text):
            let length = text.unicodeScalars.count
            if let minimum = Self.count(schema["minLength"]), length < minimum { return fail("minLength", "is shorter than \(minimum)") }
            if let maximum = Self.count(schema["maxLength"]), length > maximum { return fail("maxLength", "is longer than \(maximum)") }
            if let pattern = schema["pattern"]?.stringValue, !matches(text, pattern: pattern) { return fail("pattern", "does not match '\(pattern)'") }
            for pattern in schema[SchemaKeywords.notPatterns]?.arrayValue?.compactMap(\.stringValue) ?? [] where matches(text, pattern: pattern) {
                return fail("not", "matches the excluded pattern '\(pattern)'")
            }
            if compiler.options.assertsFormats, let name = schema["format"]?.stringValue, let regex = SchemaCompiler.formats[name],
                !matches(text, pattern: "^(?:" + regex + ")$")
            {
                return fail("format", "is not a valid \(name)")
            }
        case .array(let elements):
            if let minimum = Self.count(schema["minItems"]), elements.count < minimum { return fail("minItems", "has fewer than \(minimum) items") }
            if let maximum = Self.count(schema["maxItems"]), elements.count > maximum { return fail("maxItems", "has more than \(maximum) items") }
            if case .bool(true)? = schema["uniqueItems"] {
                for (index, element) in elements.enumerated() where elements[..<index].containsInstance(element) {
                    return fail("uniqueItems", "item \(index) repeats an earlier item")
                }
            }
            let prefix = schema["prefixItems"]?.arrayValue ?? []
            for (index, element) in elements.enumerated() {
                let itemSchema: SchemaValue
                let itemPointer: String
                if index < prefix.count {
                    itemSchema = prefix[index]
                    itemPointer = sub("prefixItems/\(index)")
                } else if let items = schema["items"] {
                    itemSchema = items
                    itemPointer = sub("items")
                } else {
                    continue
                }
                let result = check(element, against: itemSchema, schemaPointer: itemPointer, instancePointer: at(String(index)))
                if result.violation != nil { return result }
                outcome.items.insert(index)
            }
            if let contains = schema["contains"] {
                var matched = 0
                for (index, element) in elements.enumerated()
                where check(element, against: contains, schemaPointer: sub("contains"), instancePointer: at(String(index))).violation == nil {
                    matched += 1
                    outcome.items.insert(index)
                }
                let minimum = Self.count(schema["minContains"]) ?? 1
                if matched < minimum { return fail("contains", "has \(matched) matching items, fewer than \(minimum)") }
                if let maximum = Self.count(schema["maxContains"]), matched > maximum { return fail("maxContains", "has more than \(maximum) matching items") }
            }
        case .object(let members):
            if let minimum = Self.count(schema["minProperties"]), members.count < minimum { return fail("minProperties", "has fewer than \(minimum) members") }
            if let maximum = Self.count(schema["maxProperties"]), members.count > maximum { return fail("maxProperties", "has more than \(maximum) members") }
            let names = members.map(\.key)
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !names.contains(name) {
                return fail("required", "has no member '\(name)'")
            }
            for name in schema[SchemaKeywords.forbiddenNames]?.arrayValue?.compactMap(\.stringValue) ?? [] where names.contains(name) {
                return fail("not", "has the member '\(name)'")
            }
            for rules in schema[SchemaKeywords.violating]?.arrayValue ?? [] {
                let listed = rules["properties"]?.objectMembers ?? []
                let breaksOne = members.contains { member in
                    let rule = listed.last { $0.key == member.key }?.value ?? rules["others"]
                    let kept = rule?["kept"] ?? .bool(true)
                    return check(member.value, against: kept, schemaPointer: sub(SchemaKeywords.violating), instancePointer: at(member.key)).violation != nil
                }
                if !breaksOne { return fail("not", "matches the schema it must not match") }
            }
            for (trigger, needed) in schema["dependentRequired"]?.objectMembers ?? [] where names.contains(trigger) {
                for name in needed.arrayValue?.compactMap(\.stringValue) ?? [] where !names.contains(name) {
                    return fail("dependentRequired", "has '\(trigger)' but not '\(name)'")
                }
            }
            let properties = schema["properties"]?.objectMembers ?? []
            let patterns = schema["patternProperties"]?.objectMembers ?? []
            for (name, member) in members.map({ ($0.key, $0.value) }) {
                var matched = false
                if let propertySchema = properties.last(where: { $0.key == name })?.value {
                    matched = true
                    let result = check(member, against: propertySchema, schemaPointer: sub("properties/" + SchemaDocument.escape(name)), instancePointer: at(name))
                    if result.violation != nil { return result }
                }
                for (pattern, patternSchema) in patterns where matches(name, pattern: pattern) {
                    matched = true
                    let result = check(member, against: patternSchema, schemaPointer: sub("patternProperties/" + SchemaDocument.escape(pattern)), instancePointer: at(name))
                    if result.violation != nil { return result }
                }
                if !matched, let additional = schema["additionalProperties"] {
                    let result = check(member, against: additional, schemaPointer: sub("additionalProperties"), instancePointer: at(name))
                    if result.violation != nil { return result }
                    matched = true
                }
                if matched { outcome.properties.insert(name) }
                if let nameSchema = schema["propertyNames"] {
                    let result = check(.string(name), against: nameSchema, schemaPointer: sub("propertyNames"), instancePointer: at(name))
                    if result.violation != nil { return result }
                }
            }
            for (trigger, dependent) in schema["dependentSchemas"]?.objectMembers ?? [] where names.contains(trigger) {
                let result = check(value, against: dependent, schemaPointer: sub("dependentSchemas/" + SchemaDocument.escape(trigger)), instancePointer: instancePointer)
                if result.violation != nil { return result }
                outcome.absorb(result)
            }
        default:
            break
        }

        if let parts = schema["allOf"]?.arrayValue {
            for (index, part) in parts.enumerated() {
                let result = check(value, against: part, schemaPointer: sub("allOf/\(index)"), instancePointer: instancePointer)
                if result.violation != nil { return result }
                outcome.absorb(result)
            }
        }
        if let alternatives = schema["anyOf"]?.arrayValue {
            var any = false
            for (index, alternative) in alternatives.enumerated() {
                let result = check(value, against: alternative, schemaPointer: sub("anyOf/\(index)"), instancePointer: instancePointer)
                if result.violation == nil {
                    any = true
                    outcome.absorb(result)
                }
            }
            if !any { return fail("anyOf", "matches none of the alternatives") }
        }
        if let alternatives = schema["oneOf"]?.arrayValue {
            var matches = 0
            for (index, alternative) in alternatives.enumerated() {
                let result = check(value, against: alternative, schemaPointer: sub("oneOf/\(index)"), instancePointer: instancePointer)
                if result.violation == nil {
                    matches += 1
                    outcome.absorb(result)
                }
            }
            if matches != 1 { return fail("oneOf", "matches \(matches) of the alternatives, not exactly one") }
        }
        if let negated = schema["not"], check(value, against: negated, schemaPointer: sub("not"), instancePointer: instancePointer).violation == nil {
            return fail("not", "matches the schema it must not match")
        }
        if let condition = schema["if"] {
            let test = check(value, against: condition, schemaPointer: sub("if"), instancePointer: instancePointer)
            let branch = test.violation == nil ? "then" : "else"
            if test.violation == nil { outcome.absorb(test) }
            if let chosen = schema[branch] {
                let result = check(value, against: chosen, schemaPointer: sub(branch), instancePointer: instancePointer)
                if result.violation != nil { return result }
                outcome.absorb(result)
            }
        }
        if case .array(let elements) = value, let unevaluated = schema["unevaluatedItems"] {
            for index in elements.indices where !outcome.items.contains(index) {
                let result = check(elements[index], against: unevaluated, schemaPointer: sub("unevaluatedItems"), instancePointer: at(String(index)))
                if result.violation != nil { return result }
                outcome.items.insert(index)
            }
        }
        if case .object(let members) = value, let unevaluated = schema["unevaluatedProperties"] {
            for (name, member) in members.map({ ($0.key, $0.value) }) where !outcome.properties.contains(name) {
                let result = check(member, against: unevaluated, schemaPointer: sub("unevaluatedProperties"), instancePointer: at(name))
                if result.violation != nil { return result }
                outcome.properties.insert(name)
            }
        }
        return outcome
    }

    static func hasType(_ value: SchemaValue, _ type: String) -> Bool {
        switch (value, type) {
        case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"), (.number, "number"): true
        case (.number(let text), "integer"): DecimalNumber(text)?.isInteger == true
        default: false
        }
    }

    static func count(_ value: SchemaValue?) -> Int? {
        guard case .number(let text)? = value, let number = DecimalNumber(text), number.isInteger else { return nil }
        return Int(number.plainText)
    }

    /// The bound a number breaks, if any.
    static func numberProblem(_ text: String, _ schema: SchemaValue) -> (keyword: String, reason: String)? {
        guard let number = DecimalNumber(text) else { return ("type", "is not a number") }
        func bound(_ keyword: String) -> DecimalNumber? {
            guard case .number(let value)? = schema[keyword] else { return nil }
            return DecimalNumber(value)
        }
        if let minimum = bound("minimum"), number < minimum { return ("minimum", "is below \(minimum)") }
        if let maximum = bound("maximum"), maximum < number { return ("maximum", "is above \(maximum)") }
        if let minimum = bound("exclusiveMinimum"), !(minimum < number) { return ("exclusiveMinimum", "is not above \(minimum)") }
        if let maximum = bound("exclusiveMaximum"), !(number < maximum) { return ("exclusiveMaximum", "is not below \(maximum)") }
        if let divisor = bound("multipleOf"), !isMultiple(number, of: divisor) { return ("multipleOf", "is not a multiple of \(divisor)") }
        return nil
    }

    /// Whether `value` is an integer multiple of `divisor`, exactly in decimal.
    static func isMultiple(_ value: DecimalNumber, of divisor: DecimalNumber) -> Bool {
        guard !divisor.isZero else { return false }
        if value.isZero { return true }
        let scale = min(value.exponent, divisor.exponent)
        // Both as integers at the same scale: value digits followed by zeros, and the divisor's.
        let divisorDigits = divisor.digits + Array(repeating: 0, count: divisor.exponent - scale)
        guard divisorDigits.count <= 17 else {
            let quotient = (Double(value.description) ?? 0) / (Double(divisor.description) ?? 1)
            return quotient == quotient.rounded()
        }
        let modulus = divisorDigits.reduce(0) { $0 * 10 + Int($1) }
        var remainder = 0
        for digit in value.digits + Array(repeating: 0, count: value.exponent - scale) { remainder = (remainder * 10 + Int(digit)) % modulus }
        return remainder == 0
    }

    /// Whether `text` contains a match of the ECMA-262 `pattern` (through the engine's own
    /// automaton where it reads the pattern, else Foundation's regular expressions; a pattern
    /// neither reads is a mismatch, so nothing passes unchecked).
    func matches(_ text: String, pattern: String) -> Bool {
        if let node = try? RegexParser.patternLanguage(pattern), let automaton = try? compiler.regexAutomata.automaton(of: node) {
            return automaton.accepts(text)
        }
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
