import PartialJSON

/// Reads a JSON Schema document into schema nodes, keeping property order, and refuses what it
/// cannot enforce by naming the keyword and its JSON pointer.
struct JSONSchemaReader {
    /// Keywords that only annotate and are accepted anywhere; only `title` and `description`
    /// are kept.
    static let annotations: Set<String> = ["title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"]

    /// Keywords allowed beside each `type`.
    static let keywordsOfType: [String: Set<String>] = [
        "object": ["properties", "required", "additionalProperties", "x-order"],
        "array": ["items", "minItems", "maxItems"],
        "string": ["pattern", "enum", "const"],
        "integer": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
        "number": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
        "boolean": [],
        "null": [],
    ]

    private let definitionNames: Set<String>

    /// Reads a whole document: the root schema and its `$defs`.
    static func read(_ document: JSONValue) throws(JSONSchemaError) -> GenerationSchema {
        var definitionNames = Set<String>()
        var definitionValues: [(String, JSONValue)] = []
        if case .object(let root) = document, let defs = root["$defs"] {
            guard case .object(let members) = defs else {
                throw JSONSchemaError(keyword: "$defs", pointer: "/$defs", reason: "must be an object of schemas")
            }
            for member in members.members {
                guard definitionNames.insert(member.key).inserted else {
                    throw JSONSchemaError(keyword: "$defs", pointer: "/$defs/" + escape(member.key), reason: "the name is defined twice")
                }
                definitionValues.append((member.key, member.value))
            }
        }
        let reader = JSONSchemaReader(definitionNames: definitionNames)
        let root = try reader.node(document, at: "", isRoot: true)
        var definitions: [(name: String, node: SchemaNode)] = []
        for (name, value) in definitionValues {
            definitions.append((name, try reader.node(value, at: "/$defs/" + escape(name), isRoot: false)))
        }
        return GenerationSchema(root: root, definitions: definitions)
    }

    static func escape(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private func node(_ value: JSONValue, at pointer: String, isRoot: Bool) throws(JSONSchemaError) -> SchemaNode {
        switch value {
        case .bool(true): return SchemaNode(.anything)
        case .bool(false): return SchemaNode(.nothing)
        case .object: break
        default: throw JSONSchemaError(keyword: "", pointer: pointer, reason: "a schema must be an object or a Boolean")
        }
        guard case .object(let object) = value else { return SchemaNode(.anything) }
        if object.hasDuplicateKeys {
            let duplicate = object.keys.enumerated().first { index, key in object.keys[..<index].contains(key) }?.element ?? ""
            throw JSONSchemaError(keyword: duplicate, pointer: pointer + "/" + Self.escape(duplicate), reason: "the keyword appears twice")
        }
        func string(_ keyword: String) throws(JSONSchemaError) -> String? {
            guard let member = object[keyword] else { return nil }
            guard case .string(let text) = member else {
                throw JSONSchemaError(keyword: keyword, pointer: pointer + "/" + keyword, reason: "must be a string")
            }
            return text
        }
        var node = SchemaNode(title: try string("title"), description: try string("description"), .anything)
        var allowed = Self.annotations
        if isRoot { allowed.formUnion(["$schema", "$defs"]) }
        if isRoot, let dialect = try string("$schema"), dialect != GenerationSchema.jsonSchemaDialect {
            throw JSONSchemaError(keyword: "$schema", pointer: "/$schema", reason: "only Draft 2020-12 (\(GenerationSchema.jsonSchemaDialect)) is supported, not \(dialect)")
        }

        if let type = object["type"] {
            guard case .string(let typeName) = type, let keywords = Self.keywordsOfType[typeName] else {
                throw JSONSchemaError(
                    keyword: "type", pointer: pointer + "/type",
                    reason: type.arrayValue != nil
                        ? "a list of types is not supported; use anyOf"
                        : "must be one of object, array, string, integer, number, boolean, null")
            }
            allowed.insert("type")
            allowed.formUnion(keywords)
            try refuseUnknown(object, allowed: allowed, at: pointer, context: "with type \(typeName)")
            node.kind = try typed(typeName, object, at: pointer)
        } else {
            let forms = ["anyOf", "enum", "const", "$ref", "not"].filter { object[$0] != nil }
            allowed.formUnion(forms.prefix(1))
            try refuseUnknown(object, allowed: allowed, at: pointer, context: forms.first.map { "beside \($0)" } ?? "without a type")
            node.kind = try untyped(forms.first, object, at: pointer)
        }
        return node
    }

    private func refuseUnknown(_ object: JSONObject, allowed: Set<String>, at pointer: String, context: String) throws(JSONSchemaError) {
        for key in object.keys where !allowed.contains(key) {
            let reason = Self.keywordsOfType.values.contains { $0.contains(key) } || ["anyOf", "enum", "const", "$ref", "not", "$defs", "$schema", "type"].contains(key)
                ? "not supported \(context)"
                : "not supported"
            throw JSONSchemaError(keyword: key, pointer: pointer + "/" + Self.escape(key), reason: reason)
        }
    }

    private func typed(_ typeName: String, _ object: JSONObject, at pointer: String) throws(JSONSchemaError) -> SchemaNode.Kind {
        switch typeName {
        case "object":
            return try objectKind(object, at: pointer)
        case "array":
            let items = try object["items"].map { value throws(JSONSchemaError) in try node(value, at: pointer + "/items", isRoot: false) }
            return .array(
                items: items, minItems: try count("minItems", object, at: pointer),
                maxItems: try count("maxItems", object, at: pointer))
        case "string":
            var constraints = StringConstraints()
            if let pattern = object["pattern"] {
                guard case .string(let text) = pattern else {
                    throw JSONSchemaError(keyword: "pattern", pointer: pointer + "/pattern", reason: "must be a string")
                }
                constraints.pattern = text
            }
            if let choices = object["enum"] {
                guard case .array(let values) = choices, !values.isEmpty else {
                    throw JSONSchemaError(keyword: "enum", pointer: pointer + "/enum", reason: "must be a non-empty array")
                }
                constraints.choices = try values.enumerated().map { index, value throws(JSONSchemaError) in
                    guard case .string(let text) = value else {
                        throw JSONSchemaError(keyword: "enum", pointer: pointer + "/enum/\(index)", reason: "must hold strings beside type string")
                    }
                    return text
                }
            }
            if let constant = object["const"] {
                guard case .string(let text) = constant else {
                    throw JSONSchemaError(keyword: "const", pointer: pointer + "/const", reason: "must be a string beside type string")
                }
                constraints.constant = text
            }
            return .string(constraints)
        case "integer", "number":
            var bounds = NumberConstraints()
            func bound(_ keyword: String) throws(JSONSchemaError) -> JSONNumber? {
                guard let value = object[keyword] else { return nil }
                guard case .number(let number) = value else {
                    throw JSONSchemaError(keyword: keyword, pointer: pointer + "/" + keyword, reason: "must be a number")
                }
                return number
            }
            bounds.minimum = try bound("minimum")
            bounds.maximum = try bound("maximum")
            bounds.exclusiveMinimum = try bound("exclusiveMinimum")
            bounds.exclusiveMaximum = try bound("exclusiveMaximum")
            return typeName == "integer" ? .integer(bounds) : .number(bounds)
        case "boolean":
            return .boolean
        default:
            return .null
        }
    }

    private func objectKind(_ object: JSONObject, at pointer: String) throws(JSONSchemaError) -> SchemaNode.Kind {
        var properties: [SchemaProperty] = []
        if let value = object["properties"] {
            guard case .object(let members) = value else {
                throw JSONSchemaError(keyword: "properties", pointer: pointer + "/properties", reason: "must be an object of schemas")
            }
            if members.hasDuplicateKeys {
                throw JSONSchemaError(keyword: "properties", pointer: pointer + "/properties", reason: "a property is named twice")
            }
            for member in members.members {
                let schema = try node(member.value, at: pointer + "/properties/" + Self.escape(member.key), isRoot: false)
                properties.append(SchemaProperty(name: member.key, schema: schema, isOptional: true))
            }
        }
        let names = properties.map(\.name)
        if let value = object["required"] {
            guard case .array(let entries) = value else {
                throw JSONSchemaError(keyword: "required", pointer: pointer + "/required", reason: "must be an array of property names")
            }
            var seen = Set<String>()
            for (index, entry) in entries.enumerated() {
                guard case .string(let name) = entry, let position = names.firstIndex(of: name), seen.insert(name).inserted else {
                    throw JSONSchemaError(
                        keyword: "required", pointer: pointer + "/required/\(index)",
                        reason: "must name each property of 'properties' at most once")
                }
                properties[position].isOptional = false
            }
        }
        var additionalProperties: Bool?
        if let value = object["additionalProperties"] {
            guard case .bool(let flag) = value else {
                throw JSONSchemaError(
                    keyword: "additionalProperties", pointer: pointer + "/additionalProperties",
                    reason: "only true or false is supported, not a schema")
            }
            additionalProperties = flag
        } else if object["properties"] == nil {
            // An object that names no property (`{"type": "object"}`, a `dict` parameter,
            // `json_object`) is any object, as the engine compiles it.
            additionalProperties = true
        }
        if let value = object["x-order"] {
            guard case .array(let entries) = value, Set(entries.compactMap(\.stringValue)) == Set(names), entries.count == names.count else {
                throw JSONSchemaError(keyword: "x-order", pointer: pointer + "/x-order", reason: "must list each property once")
            }
            let order = entries.compactMap(\.stringValue)
            properties.sort { (order.firstIndex(of: $0.name) ?? 0) < (order.firstIndex(of: $1.name) ?? 0) }
        }
        return .object(properties: properties, additionalProperties: additionalProperties)
    }

    private func count(_ keyword: String, _ object: JSONObject, at pointer: String) throws(JSONSchemaError) -> Int? {
        guard let value = object[keyword] else { return nil }
        guard case .number(let number) = value, let count = try? number.intValue(), count >= 0 else {
            throw JSONSchemaError(keyword: keyword, pointer: pointer + "/" + keyword, reason: "must be a non-negative integer")
        }
        return count
    }

    private func untyped(_ form: String?, _ object: JSONObject, at pointer: String) throws(JSONSchemaError) -> SchemaNode.Kind {
        switch form {
        case "anyOf":
            guard case .array(let choices)? = object["anyOf"], !choices.isEmpty else {
                throw JSONSchemaError(keyword: "anyOf", pointer: pointer + "/anyOf", reason: "must be a non-empty array of schemas")
            }
            var nodes: [SchemaNode] = []
            for (index, choice) in choices.enumerated() {
                nodes.append(try node(choice, at: pointer + "/anyOf/\(index)", isRoot: false))
            }
            return .anyOf(nodes)
        case "enum":
            guard case .array(let values)? = object["enum"], !values.isEmpty else {
                throw JSONSchemaError(keyword: "enum", pointer: pointer + "/enum", reason: "must be a non-empty array")
            }
            return .enumeration(values)
        case "const":
            return .constant(object["const"] ?? .null)
        case "$ref":
            guard case .string(let reference)? = object["$ref"] else {
                throw JSONSchemaError(keyword: "$ref", pointer: pointer + "/$ref", reason: "must be a string")
            }
            if reference == "#" { return .reference("") }
            let prefix = "#/$defs/"
            guard reference.hasPrefix(prefix) else {
                throw JSONSchemaError(keyword: "$ref", pointer: pointer + "/$ref", reason: "only '#' and '#/$defs/NAME' references are supported, not '\(reference)'")
            }
            let name = String(reference.dropFirst(prefix.count)).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard definitionNames.contains(name) else {
                throw JSONSchemaError(keyword: "$ref", pointer: pointer + "/$ref", reason: "'\(reference)' is not defined in $defs")
            }
            return .reference(name)
        case "not":
            guard case .object(let negated)? = object["not"], negated.isEmpty else {
                throw JSONSchemaError(keyword: "not", pointer: pointer + "/not", reason: "only 'not: {}' (no value at all) is supported")
            }
            return .nothing
        default:
            return .anything
        }
    }
}
