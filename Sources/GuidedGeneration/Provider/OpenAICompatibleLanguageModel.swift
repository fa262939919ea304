import Foundation
import PartialJSON

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A model served over the OpenAI chat-completions protocol: vLLM, SGLang, llama.cpp's
/// `llama-server`, Ollama, `guided serve`, or a hosted API. Sessions on it work as on the local
/// model: a schema is sent as a strict `response_format`, the response streams through the
/// incremental parser into snapshots, and the final content is checked against the whole schema
/// on the client, whatever the server enforced.
public struct OpenAICompatibleLanguageModel: LanguageModel {
    /// The server's API root, such as `http://127.0.0.1:8080/v1`.
    public let baseURL: URL
    /// The model the server is asked for.
    public let model: String
    /// The bearer token sent with each request, if any.
    public let apiKey: String?
    /// How long a request may wait for the server's next bytes.
    public let timeout: TimeInterval
    /// Whether the server enforces `response_format` json_schema (the client checks either way).
    public let supportsGuidedGeneration: Bool
    /// Whether the served model reads images (sent as `image_url` content parts).
    public let supportsImages: Bool

    /// A model on a server; the API key defaults to the environment's `GUIDED_API_KEY`.
    public init(
        baseURL: URL, model: String, apiKey: String? = ProcessInfo.processInfo.environment["GUIDED_API_KEY"], timeout: TimeInterval = 300,
        supportsGuidedGeneration: Bool = true, supportsImages: Bool = false
    ) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.timeout = timeout
        self.supportsGuidedGeneration = supportsGuidedGeneration
        self.supportsImages = supportsImages
    }

    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities(
            [.toolCalling, .reasoning] + (supportsGuidedGeneration ? [.guidedGeneration] : []) + (supportsImages ? [.vision] : []))
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(baseURL: baseURL, model: model, apiKey: apiKey)
    }

    /// An answer from the server that is neither a response nor one of the errors
    /// ``LanguageModelError`` names: its HTTP status and what it said.
    public struct ServerError: Error, LocalizedError, Sendable {
        public let status: Int
        public let message: String

        public var errorDescription: String? { "The server answered \(status): \(message)" }
    }

    /// Sends requests to the server and reads its event streams.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = OpenAICompatibleLanguageModel

        /// The server, model and key the executor talks to.
        public struct Configuration: Hashable, Sendable {
            let baseURL: URL
            let model: String
            let apiKey: String?
        }

        public init(configuration: Configuration) {}

        public func respond(
            to request: LanguageModelExecutorGenerationRequest, model: OpenAICompatibleLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            guard request.generationOptions.textGrammar == nil else {
                throw LanguageModelSession.GenerationError.unsupportedGuide(
                    .init(debugDescription: "A served model is not sent text grammars (regex, choices, GBNF): use the local model."))
            }
            var http = URLRequest(url: model.baseURL.appendingPathComponent("chat/completions"))
            http.httpMethod = "POST"
            http.timeoutInterval = model.timeout
            http.setValue("application/json", forHTTPHeaderField: "Content-Type")
            http.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            if let key = model.apiKey, !key.isEmpty { http.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
            http.httpBody = Data(try ChatCompletionRequest.body(for: request, model: model.model).jsonString.utf8)
            var reader = ChatCompletionStreamReader()
            var status = 0
            var headers: [String: String] = [:]
            var failure = Data()
            for try await part in HTTPStream.start(http) {
                try Task.checkCancellation()
                switch part {
                case .head(let code, let fields):
                    status = code
                    headers = fields
                case .body(let data) where status != 200:
                    if failure.count < 1 << 16 { failure.append(data) }
                case .body(let data):
                    for event in try reader.read(data) { await channel.send(event) }
                }
            }
            guard status == 200 else { throw Self.error(status: status, headers: headers, body: failure) }
            for event in try reader.finish() { await channel.send(event) }
        }

        /// What a failed request becomes: the errors the protocol's servers share by status and
        /// message, else a ``ServerError``.
        static func error(status: Int, headers: [String: String], body: Data) -> any Error {
            let text = String(decoding: body, as: UTF8.self)
            let json = try? JSONValue(parsing: text)
            let message = OpenAIWireValue.errorMessage(in: json) ?? text
            let lowered = message.lowercased()
            if status == 429 {
                let reset = headers["retry-after"].flatMap(TimeInterval.init).map { Date(timeIntervalSinceNow: $0) }
                return LanguageModelError.rateLimited(.init(resetDate: reset, debugDescription: "The server is limiting requests: \(message)"))
            }
            if lowered.contains("context"), lowered.contains("length") || lowered.contains("size") || lowered.contains("exceed") {
                let size = (try? json?["error"]?["n_ctx"]?.numberValue?.intValue()) ?? 0
                let tokens = (try? json?["error"]?["n_prompt_tokens"]?.numberValue?.intValue()) ?? 0
                return LanguageModelError.contextSizeExceeded(
                    .init(contextSize: size, tokenCount: tokens, debugDescription: "The conversation does not fit in the served model's context: \(message)"))
            }
            return ServerError(status: status, message: message)
        }
    }
}
