import GuidedGeneration
import PartialJSON

/// The JSON error body that OpenAI-style clients read: `{"error": {"message", "type", "code"}}`.
public enum ServerErrorBody {
    /// A response with the error body.
    public static func response(status: Int, message: String, code: String? = nil, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        .json(status: status, json(status: status, message: message, code: code).jsonString, headers: headers)
    }

    /// The error body's value.
    public static func json(status: Int, message: String, code: String? = nil) -> JSONValue {
        OpenAIWireValue.error(status: status, message: message, code: code)
    }
}
