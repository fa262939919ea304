import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The response to an HTTP request as it arrives: its head, then the pieces of its body. A plain
/// `http://` request goes on a socket of its own (``startOnSocket(_:)``), which costs no CPU
/// while the server is silent; others (`https://`, which needs TLS) through a URLSession
/// delegate, so that a streamed body is seen piece by piece (also where `URLSession.bytes` does
/// not exist). Ending the stream cancels the request, which closes the connection.
enum HTTPStream {
    enum Part: Sendable {
        case head(status: Int, headers: [String: String])
        case body(Data)
    }

    static func start(_ request: URLRequest) -> AsyncThrowingStream<Part, any Error> {
        if request.url?.scheme?.lowercased() == "http" { return startOnSocket(request) }
        return startOnURLSession(request)
    }

    static func startOnURLSession(_ request: URLRequest) -> AsyncThrowingStream<Part, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Part, any Error>.makeStream()
        let delegate = Delegate(continuation: continuation)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return stream
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let continuation: AsyncThrowingStream<Part, any Error>.Continuation

        init(continuation: AsyncThrowingStream<Part, any Error>.Continuation) {
            self.continuation = continuation
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (key, value) in http?.allHeaderFields ?? [:] {
                if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
            }
            continuation.yield(.head(status: http?.statusCode ?? 0, headers: headers))
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            continuation.yield(.body(data))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            session.finishTasksAndInvalidate()
        }
    }
}
