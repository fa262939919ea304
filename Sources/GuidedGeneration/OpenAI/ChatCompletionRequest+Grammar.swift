import PartialJSON

/// The grammar a text answer follows, under the names the servers people use give it:
/// llama-server's `grammar` (GBNF), vLLM's `structured_outputs` (`regex`, `choice`, `grammar`;
/// its `json` is read with `response_format`) and its earlier `guided_regex`, `guided_choice` and
/// `guided_grammar` (vLLM's grammars are GBNF when they define a rule with `::=`, else Lark), and
/// OpenAI's `response_format` of type `grammar` (the grammar's text, read as vLLM's are, or its
/// `definition` in the `syntax` named: `lark`, `regex` or `gbnf`).
extension ChatCompletionRequest {
    /// The fields that each set a text grammar, by name, with how each reads its value.
    private static let grammarFields: [(name: String, read: @Sendable (JSONValue) -> TextGrammar?)] = [
        ("grammar", { $0.stringValue.map(TextGrammar.gbnf) }),
        ("guided_grammar", { $0.stringValue.map(TextGrammar.init(grammarText:)) }),
        ("guided_regex", { $0.stringValue.map(TextGrammar.regex) }),
        ("guided_choice", { choices($0).map(TextGrammar.choices) }),
        ("structured_outputs.grammar", { $0.stringValue.map(TextGrammar.init(grammarText:)) }),
        ("structured_outputs.regex", { $0.stringValue.map(TextGrammar.regex) }),
        ("structured_outputs.choice", { choices($0).map(TextGrammar.choices) }),
        ("response_format.grammar", responseFormatGrammar),
    ]

    /// The text grammar the request asks for, checked: at most one field, of the right type,
    /// whose grammar compiles, on a request that asks for neither JSON nor tools.
    static func textGrammar(_ object: JSONObject, asksForJSON: Bool, hasTools: Bool) throws(Invalid) -> TextGrammar? {
        if let outputs = object["structured_outputs"], !outputs.isNull {
            guard let members = outputs.objectValue else {
                throw Invalid(message: "'structured_outputs' must be an object.", parameter: "structured_outputs")
            }
            for member in members where !["regex", "choice", "grammar", "json"].contains(member.key) && !member.value.isNull {
                throw Invalid(
                    message: "'structured_outputs.\(member.key)' is not supported; it takes regex, choice, grammar or json.",
                    parameter: "structured_outputs.\(member.key)")
            }
            if let json = outputs["json"], !json.isNull, let format = object["response_format"], !format.isNull,
                format["type"]?.stringValue != "text"
            {
                throw Invalid(message: "'structured_outputs.json' and 'response_format' each set a schema; give one.", parameter: "structured_outputs.json")
            }
        }
        var found: (name: String, grammar: TextGrammar)?
        for field in grammarFields {
            let path = field.name.split(separator: ".").map(String.init)
            var value: JSONValue? = object[path[0]]
            for key in path.dropFirst() { value = value?[key] }
            guard let value, !value.isNull else { continue }
            if field.name == "response_format.grammar", object["response_format"]?["type"]?.stringValue != "grammar" { continue }
            if let found { throw Invalid(message: "'\(field.name)' and '\(found.name)' each set a grammar; give one.", parameter: field.name) }
            guard let grammar = field.read(value) else {
                let expected =
                    field.name.hasSuffix("choice") ? "a non-empty array of strings"
                    : field.name == "response_format.grammar" ? "the grammar's text, or an object with its 'definition' and 'syntax' (lark, regex or gbnf)"
                    : "a string"
                throw Invalid(message: "'\(field.name)' must be \(expected).", parameter: field.name)
            }
            found = (field.name, grammar)
        }
        guard let found else { return nil }
        if asksForJSON {
            throw Invalid(message: "'\(found.name)' constrains a text answer; it cannot go with a JSON 'response_format'.", parameter: found.name)
        }
        if hasTools {
            throw Invalid(message: "'\(found.name)' constrains a text answer; it cannot go with 'tools' unless 'tool_choice' is none.", parameter: found.name)
        }
        do {
            _ = try found.grammar.compiled()
        } catch {
            throw Invalid(message: "'\(found.name)' cannot be enforced: \(error)", parameter: found.name)
        }
        return found.grammar
    }

    /// `response_format.grammar`: the grammar's text, or `{"definition": …, "syntax": …}`.
    private static func responseFormatGrammar(_ value: JSONValue) -> TextGrammar? {
        if let text = value.stringValue { return TextGrammar(grammarText: text) }
        guard let definition = value["definition"]?.stringValue else { return nil }
        switch value["syntax"]?.stringValue {
        case nil: return TextGrammar(grammarText: definition)
        case "lark"?: return .lark(definition)
        case "regex"?: return .regex(definition)
        case "gbnf"?: return .gbnf(definition)
        default: return nil
        }
    }

    /// A non-empty array of strings.
    private static func choices(_ value: JSONValue) -> [String]? {
        guard let list = value.arrayValue, !list.isEmpty, case let strings = list.compactMap(\.stringValue), strings.count == list.count else { return nil }
        return strings
    }
}
