import PartialJSON

/// The JSON Schema of a model turn in a session with tools (see ``ToolTurnFormat``): either
/// `{"tool_calls": […]}`, a non-empty array of `{"name": …, "arguments": …}` objects, each naming
/// one of the tools with arguments of that tool's schema, or `{"answer": …}`, a string or content
/// of the requested schema. Each embedded schema is kept under `$defs` with its own definitions
/// renamed.
enum ToolTurnSchema {
    /// The most calls in one turn.
    static let maximumCalls = 8

    /// The schema of a turn; `answer` is the JSON Schema of the answer, `nil` for text. Without
    /// definitions, the turn can only be the answer; with `requiresCall`, it can only be calls.
    /// A turn holds at most `maximumCalls` calls (clamped to 1 and ``maximumCalls``).
    static func schema(
        for definitions: [Transcript.ToolDefinition], answer: JSONValue?, requiresCall: Bool = false, maximumCalls: Int? = nil
    ) throws -> JSONValue {
        var defs = JSONObject()
        var calls: [JSONValue] = []
        for (index, definition) in definitions.enumerated() {
            let name = "tool\(index)"
            embed(try definition.parameters.jsonSchema(), as: name, into: &defs)
            calls.append(object(["name": .object(["const": .string(definition.name)]), "arguments": reference(name)]))
        }
        let answerSchema: JSONValue
        if let answer {
            embed(answer, as: "answer", into: &defs)
            answerSchema = reference("answer")
        } else {
            answerSchema = .object(["type": .string("string")])
        }
        let array: JSONObject = [
            "type": .string("array"),
            "items": .object(["anyOf": .array(calls)]),
            "minItems": .number(JSONNumber(1)),
            "maxItems": .number(JSONNumber(min(max(maximumCalls ?? Self.maximumCalls, 1), Self.maximumCalls))),
        ]
        let answerTurn = object([ToolTurnFormat.answerKey: answerSchema])
        let callsTurn = object([ToolTurnFormat.callsKey: .object(array)])
        var schema: JSONObject =
            calls.isEmpty ? answerTurn.objectValue ?? [:] : requiresCall ? callsTurn.objectValue ?? [:] : ["anyOf": .array([callsTurn, answerTurn])]
        schema.append(key: "$defs", value: .object(defs))
        return .object(schema)
    }

    /// An object schema with exactly these properties, all required.
    private static func object(_ properties: JSONObject) -> JSONValue {
        .object([
            "type": .string("object"),
            "properties": .object(properties),
            "required": .array(properties.keys.map(JSONValue.string)),
            "additionalProperties": .bool(false),
        ])
    }

    private static func reference(_ name: String) -> JSONValue {
        .object(["$ref": .string("#/$defs/" + name)])
    }

    /// Adds a document's root to `defs` under `name`, and its definitions under `name.DEF`.
    private static func embed(_ document: JSONValue, as name: String, into defs: inout JSONObject) {
        guard case .object(var root) = document else {
            defs.append(key: name, value: document)
            return
        }
        root.members.removeAll { $0.key == "$schema" }
        if let nested = root["$defs"]?.objectValue {
            root.members.removeAll { $0.key == "$defs" }
            for member in nested {
                defs.append(key: name + "." + member.key, value: renamingReferences(in: member.value, prefix: name))
            }
        }
        defs.append(key: name, value: renamingReferences(in: .object(root), prefix: name))
    }

    /// The schema with its references pointed at the renamed definitions: `#` at the embedded
    /// root (`#/$defs/PREFIX`), `#/$defs/NAME` at `#/$defs/PREFIX.NAME`.
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
