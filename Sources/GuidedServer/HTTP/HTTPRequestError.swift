/// Why the bytes a client sent are not a request this server takes, with the status that says
/// so in the response.
public enum HTTPRequestError: Error, Equatable, Sendable {
    /// The bytes do not follow HTTP/1.1's syntax (400); the reason says where.
    case malformed(String)
    /// The request line and header fields exceed their limit (431).
    case headerTooLarge
    /// The body exceeds its limit, as its `Content-Length` says (413).
    case bodyTooLarge(length: Int, limit: Int)
    /// A transfer coding the server does not read (501): it reads `chunked` alone.
    case unsupportedTransferEncoding(String)
    /// A version other than HTTP/1.0 or HTTP/1.1 (505).
    case unsupportedVersion(String)
    /// The request did not arrive in full within the time allowed (408).
    case timedOut

    /// The status of the response that reports the error.
    public var status: Int {
        switch self {
        case .malformed: 400
        case .headerTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedTransferEncoding: 501
        case .unsupportedVersion: 505
        case .timedOut: 408
        }
    }

    /// A sentence for the response body.
    public var message: String {
        switch self {
        case .malformed(let reason): "Malformed request: \(reason)."
        case .headerTooLarge: "The request line and header fields are too large."
        case .bodyTooLarge(let length, let limit): "The body of \(length) bytes exceeds the limit of \(limit) bytes."
        case .unsupportedTransferEncoding(let coding): "Transfer-Encoding '\(coding)' is not supported; send the body with Content-Length or chunked alone."
        case .unsupportedVersion(let version): "\(version) is not supported; use HTTP/1.1."
        case .timedOut: "The request did not arrive in time."
        }
    }
}
