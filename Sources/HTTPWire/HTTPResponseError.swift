/// Why the bytes a server sent are not a response a client can read.
package enum HTTPResponseError: Error, Equatable, Sendable {
    /// The bytes do not follow HTTP/1.1's syntax; the reason says where.
    case malformed(String)
    /// The status line and header fields (or the trailer fields) exceed their limit.
    case headTooLarge(limit: Int)
    /// A transfer coding other than `chunked`.
    case unsupportedTransferEncoding(String)
    /// A version other than HTTP/1.0 or HTTP/1.1.
    case unsupportedVersion(String)
    /// The connection closed before the response ended.
    case incomplete

    /// A sentence that says what the server sent.
    package var message: String {
        switch self {
        case .malformed(let reason): "malformed response: \(reason)"
        case .headTooLarge(let limit): "the response's header fields exceed \(limit) bytes"
        case .unsupportedTransferEncoding(let coding): "the response has Transfer-Encoding '\(coding)', which this client does not read"
        case .unsupportedVersion(let version): "the response is \(version), not HTTP/1.1"
        case .incomplete: "the server closed the connection before the end of the response"
        }
    }
}
