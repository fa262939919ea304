import Foundation

extension OpenAICompatibleLanguageModel {
    /// Why the exchange with the server failed below the chat-completions protocol: the server
    /// could not be reached, went silent, sent bytes that are not an HTTP/1.1 response, or closed
    /// the connection before the end of its response.
    public enum ConnectionError: Error, LocalizedError, CustomStringConvertible, Equatable, Sendable {
        /// The server could not be reached (no such host, nothing listening, unreachable); the
        /// reason names the address and what the system said.
        case cannotConnect(String)
        /// Nothing arrived from the server for `seconds` (the model's `timeout`).
        case timedOut(seconds: Double)
        /// The server's answer is not an HTTP/1.1 response this client reads (bad status line,
        /// header fields beyond 64 KiB, a bad chunk size, a transfer coding other than chunked);
        /// the reason says what.
        case malformedResponse(String)
        /// The server closed the connection before the end of its response.
        case closedEarly
        /// The request cannot be sent as it is: the reason says which part (a header value with
        /// a line break, a URL without a host).
        case invalidRequest(String)

        public var errorDescription: String? {
            switch self {
            case .cannotConnect(let reason): "The server cannot be reached: \(reason). Check the endpoint's host and port, and that the server runs."
            case .timedOut(let seconds): "The server sent nothing for \(seconds) s; it may be overloaded, or the timeout too short."
            case .malformedResponse(let reason): "The server's answer is not valid HTTP/1.1: \(reason)."
            case .closedEarly: "The server closed the connection before the end of its response."
            case .invalidRequest(let reason): "The request cannot be sent: \(reason)."
            }
        }

        public var description: String { errorDescription ?? "" }
    }
}
