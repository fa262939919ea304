import PartialJSON

/// The JSON Schema of the calls a model may write in one turn: a non-empty array of
/// `{"name": …, "arguments": …}` objects, each naming one of the tools, with arguments of that
/// tool's schema. Each tool's schema is kept under `$defs` with its own definitions renamed.
enum ToolCallSchema {
    /// The most calls in one turn.
    static let maximumCalls = 8

    static func schema(for definitions: [Transcript.ToolDefinition]) throws -> JSONValue {
        var defs = JSONObject()
        var choices: [JSONValue] = []
        for (index, definition) in definitions.enumerated() {
            let prefix = "tool\(index)"
            guard case .object(var root) = try definition.parameters.jsonSchema() else { continue }
            root.members.removeAll { $0.key == "$schema" }
            if let nested = root["$defs"]?.objectValue {
                root.members.removeAll { $0.key == "$defs" }
                for member in nested {
                    defs.append(key: prefix + "." + member.key, value: renamingReferences(in: member.value, prefix: prefix))
                }
            }
            defs.append(key: prefix, value: renamingReferences(in: .object(root), prefix: prefix))
            choices.append(
                .object([
                    "type": .string("object"),
                    "properties": .object([
                        "name": .object(["const": .string(definition.name)]),
                        "arguments": .object(["$ref": .string("#/$defs/" + prefix)]),
                    ]),
                    "required": .array([.string("name"), .string("arguments")]),
                    "additionalProperties": .bool(false),
                ]))
        }
        var schema: JSONObject = [
            "type": .string("array"),
            "items": .object(["anyOf": .array(choices)]),
            "minItems": .number(JSONNumber(1)),
            "maxItems": .number(JSONNumber(maximumCalls)),
        ]
        schema.append(key: "$defs", value: .object(defs))
        return .object(schema)
    }

    /// The schema with its references pointed at the renamed definitions: `#` at the tool's root
    /// (`#/$defs/PREFIX`), `#/$defs/NAME` at `#/$defs/PREFIX.NAME`.
    private static func renamingReferences(in value: JSONValue, prefix: String) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { member in
                switch member.key {
                case "$ref":
                    guard case .string(let reference) = member.value else { return member }
                    let renamed = reference == "#" ? "#/$defs/" + prefix : reference.replacingPrefix("#/$defs/", with: "#/$defs/" + prefix + ".")
                    return JSONObject.Member(key: member.key, value: .string(renamed))
                case "const", "enum":
                    return member
                default:
                    return JSONObject.Member(key: member.key, value: renamingReferences(in: member.value, prefix: prefix))
                }
            }))
        case .array(let elements):
            return .array(elements.map { renamingReferences(in: $0, prefix: prefix) })
        default:
            return value
        }
    }
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
