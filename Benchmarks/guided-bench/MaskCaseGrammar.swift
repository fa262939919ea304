import ConstrainedDecoding
import PartialJSON

/// What a case of `guided-bench masks` is compiled from: its JSON Schema (`"schema"`), or a
/// grammar text (`"grammar"`) in the format that `"format"` names, `gbnf` or `lark`.
enum MaskCaseGrammar: Equatable {
    case jsonSchema(String)
    case gbnf(String)
    case lark(String)

    init(case testCase: JSONValue) throws {
        guard let text = testCase["grammar"]?.stringValue else {
            self = .jsonSchema(testCase["schema"]?.jsonString ?? "{}")
            return
        }
        switch testCase["format"]?.stringValue {
        case "gbnf": self = .gbnf(text)
        case "lark": self = .lark(text)
        case let format:
            throw UsageError(description: "case \(testCase["id"]?.stringValue ?? "?"): format \(format ?? "(none)") is neither gbnf nor lark")
        }
    }

    /// The JSON Schema text, for a case that has one.
    var schema: String? {
        if case .jsonSchema(let schema) = self { schema } else { nil }
    }

    /// The compiled grammar, or why it was refused. The whitespace and extra-properties options
    /// apply to JSON Schemas; a grammar text says its own whitespace.
    func compile(options: CompileOptions) -> Result<CompiledGrammar, any Error> {
        switch self {
        case .jsonSchema(let schema):
            Result { () throws(SchemaError) in try CompiledGrammar(jsonSchema: schema, options: options) }.mapError { $0 }
        case .gbnf(let text):
            Result { () throws(GrammarError) in try CompiledGrammar(gbnf: text, options: options) }.mapError { $0 }
        case .lark(let text):
            Result { () throws(GrammarError) in try compileLark(text, options: options) }.mapError { $0 }
        }
    }
}
