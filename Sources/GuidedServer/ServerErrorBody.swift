import PartialJSON

/// The JSON error body that OpenAI-style clients read: `{"error": {"message", "type", "code"}}`.
public enum ServerErrorBody {
    /// A response with the error body.
    public static func response(status: Int, message: String, code: String? = nil, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        .json(status: status, json(status: status, message: message, code: code).jsonString, headers: headers)
    }

    /// The error body's value.
    public static func json(status: Int, message: String, code: String? = nil) -> JSONValue {
        let type =
            switch status {
            case 401: "authentication_error"
            case 429, 503: "server_overloaded"
            case 400..<500: "invalid_request_error"
            default: "server_error"
            }
        return .object(["error": .object(["message": .string(message), "type": .string(type), "code": code.map(JSONValue.string) ?? .null])])
    }
}
