/// A response's status and header fields, and its body when it is sent whole; a streamed body
/// goes out in chunks after the head (``chunk(_:)``).
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields other than those the server writes itself (`Content-Length`,
    /// `Transfer-Encoding`, `Connection`, `Date`).
    public var headers: [(name: String, value: String)]
    /// The body of a whole response.
    public var body: [UInt8]

    /// Creates a whole response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a JSON body.
    public static func json(status: Int = 200, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }

    /// The bytes of the status line and header fields: with `Content-Length` for a whole body
    /// (`bodyLength`), or `Transfer-Encoding: chunked` when it is `nil`.
    public func head(bodyLength: Int?, keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let bodyLength {
            text += "Content-Length: \(bodyLength)\r\n"
        } else {
            text += "Transfer-Encoding: chunked\r\n"
        }
        text += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// The bytes of one chunk of a chunked body; an empty chunk is the last one.
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10]
    }

    /// The reason phrase of a status.
    static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
