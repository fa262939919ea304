import PartialJSON

/// The JSON shapes that requests and answers of the protocol share, written and read in one
/// place: a function call (in an assistant message of a request, in an answer), the token usage
/// of an answer and the body of an error.
package enum OpenAIWireValue {
    /// A call of the function `name` with `arguments`, a JSON text (`{}` when empty).
    static func toolCall(id: String, name: String, arguments: String) -> JSONValue {
        .object([
            "id": .string(id), "type": .string("function"),
            "function": .object(["name": .string(name), "arguments": .string(arguments.isEmpty ? "{}" : arguments)]),
        ])
    }

    /// The `usage` object of an answer: prompt tokens (with those read from the cache),
    /// completion tokens (with those spent reasoning) and their total.
    static func usage(_ usage: LanguageModelSession.Usage) -> JSONValue {
        let prompt = usage.input.totalTokenCount
        let completion = usage.output.totalTokenCount
        return .object([
            "prompt_tokens": .number(JSONNumber(prompt)), "completion_tokens": .number(JSONNumber(completion)),
            "total_tokens": .number(JSONNumber(prompt + completion)),
            "prompt_tokens_details": .object(["cached_tokens": .number(JSONNumber(usage.input.cachedTokenCount))]),
            "completion_tokens_details": .object(["reasoning_tokens": .number(JSONNumber(usage.output.reasoningTokenCount))]),
        ])
    }

    /// The usage an answer's `usage` object reports; a count it lacks is 0.
    static func usage(from value: JSONValue) -> LanguageModelSession.Usage {
        func count(_ value: JSONValue?) -> Int { (try? value?.numberValue?.intValue()) ?? 0 }
        return LanguageModelSession.Usage(
            input: .init(totalTokenCount: count(value["prompt_tokens"]), cachedTokenCount: count(value["prompt_tokens_details"]?["cached_tokens"])),
            output: .init(
                totalTokenCount: count(value["completion_tokens"]), reasoningTokenCount: count(value["completion_tokens_details"]?["reasoning_tokens"])))
    }

    /// The body of an error answer with HTTP status `status`:
    /// `{"error": {"message", "type", "code"}}`, the type named after the status as OpenAI names it.
    package static func error(status: Int, message: String, code: String? = nil, parameter: String? = nil) -> JSONValue {
        let type =
            switch status {
            case 401: "authentication_error"
            case 429, 503: "server_overloaded"
            case 400..<500: "invalid_request_error"
            default: "server_error"
            }
        return .object([
            "error": .object([
                "message": .string(message), "type": .string(type), "param": parameter.map(JSONValue.string) ?? .null,
                "code": code.map(JSONValue.string) ?? .null,
            ])
        ])
    }

    /// The message of an error body: OpenAI's `error.message`, or the `error` or `message` string
    /// other servers send; `nil` when the body has none.
    static func errorMessage(in body: JSONValue?) -> String? {
        body?["error"]?["message"]?.stringValue ?? body?["error"]?.stringValue ?? body?["message"]?.stringValue
    }
}
