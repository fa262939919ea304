/// Answers the requests of an ``HTTPServer``: each request runs in a task of its own, and its
/// response goes into the writer. The task is cancelled when the client goes away.
public protocol HTTPHandler: Sendable {
    /// Answers `request` through `writer`; the server ends the response when this returns.
    func respond(to request: HTTPRequest, writer: ResponseWriter) async
}
