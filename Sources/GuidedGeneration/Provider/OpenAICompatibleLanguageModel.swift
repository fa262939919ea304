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

    /// A model on a server; the API key defaults to the environment's `GUIDED_API_KEY`.
    public init(
        baseURL: URL, model: String, apiKey: String? = ProcessInfo.processInfo.environment["GUIDED_API_KEY"], timeout: TimeInterval = 300,
        supportsGuidedGeneration: Bool = true
    ) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.timeout = timeout
        self.supportsGuidedGeneration = supportsGuidedGeneration
    }

    public var capabilities: LanguageModelCapabilities {
        LanguageModelCapabilities(supportsGuidedGeneration ? [.toolCalling, .reasoning, .guidedGeneration] : [.toolCalling, .reasoning])
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
            var http = URLRequest(url: model.baseURL.appendingPathComponent("chat/completions"))
            http.httpMethod = "POST"
            http.timeoutInterval = model.timeout
            http.setValue("application/json", forHTTPHeaderField: "Content-Type")
            http.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            if let key = model.apiKey, !key.isEmpty { http.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
            http.httpBody = Data(try ChatCompletionsRequest.body(for: request, model: model.model).jsonString.utf8)
            var reader = ChatCompletionsStream()
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
            let message = json?["error"]?["message"]?.stringValue ?? json?["error"]?.stringValue ?? json?["message"]?.stringValue ?? text
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

/// Reads a chat-completions event stream into channel events: content deltas as response text,
/// `reasoning_content` as reasoning, tool-call deltas (their id and name given once per index)
/// as calls with arguments, and usage; a refusal or an error in the stream is thrown.
struct ChatCompletionsStream {
    private var events = ServerSentEvents()
    private var calls: [Int: (id: String, name: String)] = [:]
    private var refusal = ""

    mutating func read(_ data: Data) throws -> [LanguageModelExecutorGenerationChannel.Event] {
        try events.read(data).flatMap { try chunk($0) }
    }

    mutating func finish() throws -> [LanguageModelExecutorGenerationChannel.Event] {
        let last = try events.finish().flatMap { try chunk($0) }
        if !refusal.isEmpty {
            throw LanguageModelError.refusal(.init(explanation: refusal, debugDescription: "The served model refused: \(refusal)"))
        }
        return last
    }

    private mutating func chunk(_ payload: String) throws -> [LanguageModelExecutorGenerationChannel.Event] {
        if payload == "[DONE]" { return [] }
        let chunk: JSONValue
        do {
            chunk = try JSONValue(parsing: payload)
        } catch {
            throw LanguageModelSession.GenerationError.decodingFailure(.init(debugDescription: "The server sent an event that is not JSON: \(payload.prefix(200))"))
        }
        if let error = chunk["error"], !error.isNull {
            throw OpenAICompatibleLanguageModel.ServerError(status: 200, message: error["message"]?.stringValue ?? error.jsonString)
        }
        var out: [LanguageModelExecutorGenerationChannel.Event] = []
        let delta = chunk["choices"]?.arrayValue?.first?["delta"]
        if let reasoning = delta?["reasoning_content"]?.stringValue, !reasoning.isEmpty {
            out.append(.reasoning(action: .appendText(reasoning, tokenCount: 1)))
        }
        if let text = delta?["content"]?.stringValue, !text.isEmpty {
            out.append(.response(action: .appendText(text, tokenCount: 1)))
        }
        if let text = delta?["refusal"]?.stringValue { refusal += text }
        for call in delta?["tool_calls"]?.arrayValue ?? [] {
            let index = (try? call["index"]?.numberValue?.intValue()) ?? 0
            let function = call["function"]
            var known = calls[index] ?? (id: "", name: "")
            if let id = call["id"]?.stringValue, !id.isEmpty { known.id = id }
            if let name = function?["name"]?.stringValue, !name.isEmpty { known.name = name }
            if known.id.isEmpty { known.id = "call-\(index)" }
            calls[index] = known
            let arguments = function?["arguments"]?.stringValue ?? ""
            out.append(.toolCalls(action: .toolCall(id: known.id, name: known.name, action: .appendArguments(arguments, tokenCount: arguments.isEmpty ? 0 : 1))))
        }
        if let usage = chunk["usage"], !usage.isNull {
            func count(_ value: JSONValue?) -> Int { (try? value?.numberValue?.intValue()) ?? 0 }
            out.append(
                .response(
                    action: .updateUsage(
                        input: .init(totalTokenCount: count(usage["prompt_tokens"]), cachedTokenCount: count(usage["prompt_tokens_details"]?["cached_tokens"])),
                        output: .init(
                            totalTokenCount: count(usage["completion_tokens"]),
                            reasoningTokenCount: count(usage["completion_tokens_details"]?["reasoning_tokens"])))))
        }
        return out
    }
}
