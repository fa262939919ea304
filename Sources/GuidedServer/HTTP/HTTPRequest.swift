import HTTPWire

/// One HTTP/1.1 request as read from a connection: the request line, the header fields in the
/// order they came, and the body.
public struct HTTPRequest: Sendable, Equatable {
    /// The method, such as `GET` or `POST`.
    public var method: String
    /// The request target as sent: a path, with the query if there is one.
    public var target: String
    /// The minor version of HTTP/1.x (0 or 1).
    public var minorVersion: Int
    /// The header fields, names as sent.
    public var headers: [(name: String, value: String)]
    /// The body (empty without one).
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, target: String, minorVersion: Int = 1, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// The path of the target, without its query.
    public var path: Substring {
        target.prefix { $0 != "?" && $0 != "#" }
    }

    /// The value of the first header field named `name` (compared without case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Whether the client keeps the connection open after this request: HTTP/1.1 unless it says
    /// `Connection: close`, HTTP/1.0 only when it says `keep-alive`.
    public var keepsAlive: Bool {
        let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces }
        return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
    }

    public static func == (left: HTTPRequest, right: HTTPRequest) -> Bool {
        left.method == right.method && left.target == right.target && left.minorVersion == right.minorVersion
            && left.headers.map(\.name) == right.headers.map(\.name) && left.headers.map(\.value) == right.headers.map(\.value)
            && left.body == right.body
    }
}
