import PartialJSON

/// A JSON Schema written for a model to read in a prompt: the shape of the value with its
/// property names in order, types, bounds and descriptions, one property per line, and named
/// types after the root.
package enum SchemaPromptText {
    /// The text for a schema (a JSON Schema document).
    package static func render(_ schema: JSONValue) -> String {
        var lines: [String] = []
        if case .string(let title)? = schema.member("title") {
            // In words: a model copies a type name such as `WorkoutPlan` into the values.
            lines.append("Respond with a JSON value (\(words(title))) of this form:")
        } else {
            lines.append("Respond with a JSON value of this form:")
        }
        lines += describe(schema, indent: "")
        if case .object(let definitions)? = schema.member("$defs") {
            for definition in definitions {
                lines.append("where \(definition.key) is:")
                lines += describe(definition.value, indent: "")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A name as words: `WorkoutPlan` is "workout plan", `URLList` "URL list".
    static func words(_ name: String) -> String {
        var words: [String] = []
        var current = ""
        for character in name {
            if character == "_" || character == "-" || character == " " {
                words.append(current)
                current = ""
                continue
            }
            if character.isUppercase, current.last?.isLowercase == true {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        words.append(current)
        return words.filter { !$0.isEmpty }.map { $0.contains(where: \.isLowercase) ? $0.lowercased() : $0 }.joined(separator: " ")
    }

    /// The lines of one schema: the first holds its type, then the lines of its properties or
    /// elements, indented.
    private static func describe(_ schema: JSONValue, indent: String) -> [String] {
        let comment = (schema.member("description")?.stringValue).map { " // " + $0 } ?? ""
        guard case .object = schema else { return [indent + (schema == .bool(false) ? "nothing" : "any JSON value")] }
        if case .string(let reference)? = schema.member("$ref") {
            let name = reference == "#" ? "the whole value, nested" : String(reference.split(separator: "/").last ?? "value")
            return [indent + name + comment]
        }
        if case .array(let choices)? = schema.member("anyOf") ?? schema.member("oneOf") {
            return [indent + "one of:" + comment] + choices.flatMap { describe($0, indent: indent + "  ") }
        }
        if case .array(let values)? = schema.member("enum") {
            return [indent + "one of " + values.map(\.jsonString).joined(separator: ", ") + comment]
        }
        if let constant = schema.member("const") { return [indent + constant.jsonString + comment] }
        var types: [String] = []
        switch schema.member("type") {
        case .string(let type)?: types = [type]
        case .array(let list)?: types = list.compactMap(\.stringValue)
        default: types = []
        }
        let nullable = types.contains("null") && types.count > 1 ? " or null" : ""
        switch types.first(where: { $0 != "null" }) {
        case "object"?:
            var lines = [indent + "{" + comment]
            if case .object(let properties)? = schema.member("properties") {
                let required = Set((schema.member("required")?.arrayValue ?? []).compactMap(\.stringValue))
                for property in properties {
                    var inner = describe(property.value, indent: indent + "  ")
                    let label = "\"\(property.key)\"" + (required.contains(property.key) ? "" : " (optional)") + ": "
                    inner[0] = indent + "  " + label + inner[0].dropFirst(indent.count + 2)
                    lines += inner
                }
            }
            lines.append(indent + "}" + nullable)
            return lines
        case "array"?:
            var bounds: [String] = []
            if let minimum = schema.member("minItems")?.jsonString { bounds.append("at least \(minimum)") }
            if let maximum = schema.member("maxItems")?.jsonString { bounds.append("at most \(maximum)") }
            let head = indent + "array" + (bounds.isEmpty ? "" : " of " + bounds.joined(separator: " and ")) + nullable + " of" + comment
            guard let items = schema.member("items") else { return [indent + "array" + nullable + comment] }
            return [head] + describe(items, indent: indent + "  ")
        case let type?:
            var text = type
            if let minimum = schema.member("minimum")?.jsonString { text += ", at least \(minimum)" }
            if let minimum = schema.member("exclusiveMinimum")?.jsonString { text += ", more than \(minimum)" }
            if let maximum = schema.member("maximum")?.jsonString { text += ", at most \(maximum)" }
            if let maximum = schema.member("exclusiveMaximum")?.jsonString { text += ", less than \(maximum)" }
            if let pattern = schema.member("pattern")?.stringValue { text += " matching /\(pattern)/" }
            if let format = schema.member("format")?.stringValue { text += " (\(format))" }
            return [indent + text + nullable + comment]
        case nil:
            return [indent + (types.isEmpty ? "any JSON value" : "null") + comment]
        }
    }
}

extension JSONValue {
    /// The value of a member, when this is an object that has it.
    fileprivate func member(_ key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    fileprivate var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    fileprivate var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}
