import GuidedGeneration
import PartialJSON

/// The JSON error body that OpenAI-style clients read:
/// `{"error": {"message", "type", "param", "code"}}`, `param` naming the request's field at fault.
public enum ServerErrorBody {
    /// A response with the error body.
    public static func response(
        status: Int, message: String, code: String? = nil, parameter: String? = nil, headers: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        .json(status: status, json(status: status, message: message, code: code, parameter: parameter).jsonString, headers: headers)
    }

    /// The error body's value.
    public static func json(status: Int, message: String, code: String? = nil, parameter: String? = nil) -> JSONValue {
        OpenAIWireValue.error(status: status, message: message, code: code, parameter: parameter)
    }
}
