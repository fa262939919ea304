import Foundation
import GuidedGeneration
import PartialJSON

/// The OpenAI-compatible API over one ``LanguageModel``, as `guided serve` runs it:
/// `POST /v1/chat/completions` (whole or streamed as server-sent events; `response_format`
/// json_schema and json_object, `tools` with arguments of their schemas, `seed`, `temperature`,
/// `top_p`, `top_k`, `max_tokens`, `stop`), `GET /v1/models` and `GET /health`. With an API key, every
/// `/v1` request must bear it. Requests wait for the model in a bounded queue (503 with
/// `Retry-After` beyond it); a request whose client leaves stops at the next token.
public struct OpenAIEndpoint: HTTPHandler {
    private let model: ProviderModel
    private let name: String
    private let apiKey: String?
    private let queue: AdmissionQueue
    private let toolCallFormat: ToolCallFormat?

    /// Serves `model` under `name`; `apiKey`, when given, is required as a bearer token; at most
    /// `parallel` requests run at once, and `maximumWaiting` wait while they run. Requests with
    /// tools are answered in `toolCallFormat` (`nil` for the model's default).
    public init(
        model: some LanguageModel, name: String, apiKey: String? = nil, parallel: Int = 4, maximumWaiting: Int = 32,
        toolCallFormat: ToolCallFormat? = nil
    ) {
        self.model = ProviderModel(model)
        self.name = name
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        queue = AdmissionQueue(maximumRunning: parallel, maximumWaiting: maximumWaiting)
        self.toolCallFormat = toolCallFormat
    }

    public func respond(to request: HTTPRequest, writer: ResponseWriter) async {
        let path = request.path
        if path == "/health" || path == "/v1/health" {
            writer.send(.json(#"{"status":"ok"}"#))
            return
        }
        guard path.hasPrefix("/v1/") else {
            writer.send(ServerErrorBody.response(status: 404, message: "No route for \(request.method) \(path.prefix(200))."))
            return
        }
        if let apiKey, request.header("authorization") != "Bearer \(apiKey)" {
            writer.send(ServerErrorBody.response(status: 401, message: "A valid API key is required (Authorization: Bearer KEY).", code: "invalid_api_key"))
            return
        }
        switch (request.method, path) {
        case ("GET", "/v1/models"):
            let entry: JSONValue = .object([
                "id": .string(name), "object": .string("model"), "created": .number(JSONNumber(Self.now)), "owned_by": .string("guided"),
            ])
            writer.send(.json(JSONValue.object(["object": .string("list"), "data": .array([entry])]).jsonString))
        case ("POST", "/v1/chat/completions"):
            await chatCompletion(request, writer: writer)
        case (_, "/v1/models"), (_, "/v1/chat/completions"):
            writer.send(ServerErrorBody.response(status: 405, message: "\(request.method) is not allowed on \(path)."))
        default:
            writer.send(ServerErrorBody.response(status: 404, message: "No route for \(request.method) \(path.prefix(200))."))
        }
    }

    private static var now: Int { Int(Date().timeIntervalSince1970) }

    private func chatCompletion(_ http: HTTPRequest, writer: ResponseWriter) async {
        let request: ChatCompletionRequest
        do {
            request = try await read(http.body).get()
        } catch let error as ChatCompletionRequest.Invalid {
            writer.send(
                ServerErrorBody.response(status: 400, message: error.message, code: error.parameter.map { _ in "invalid_parameter" }, parameter: error.parameter))
            return
        } catch {
            if let response = Self.errorResponse(error) { writer.send(response) }
            return
        }
        do {
            try await queue.enter()
        } catch is AdmissionQueue.Full {
            writer.send(ServerErrorBody.response(status: 503, message: "The model is busy; \(queue.maximumRunning) requests are running and \(queue.maximumWaiting) waiting.", headers: [("Retry-After", "1")]))
            return
        } catch {
            return
        }
        defer { queue.leave() }
        let completion = ChatCompletionWriter(id: "chatcmpl-" + UUID().uuidString, created: Self.now, model: name)
        if request.stream {
            await stream(request, completion: completion, writer: writer)
            return
        }
        do {
            let answer = try await run(request) { _, _ in
                if writer.isClientGone { throw CancellationError() }
            }
            let message = completion.message(of: answer.turn, content: answer.content)
            let reason = answer.stopped ? "stop" : completion.finishReason(of: answer.turn, request: request)
            writer.send(.json(completion.whole(message: message, finishReason: reason, usage: answer.turn.usage).jsonString))
        } catch {
            if let response = Self.errorResponse(error) { writer.send(response) }
        }
    }

    /// Streams the answer: a first chunk with the role, the text as it settles, then the tool
    /// calls, the finish reason, the usage when asked for, and `[DONE]`.
    private func stream(_ request: ChatCompletionRequest, completion: ChatCompletionWriter, writer: ResponseWriter) async {
        writer.startStream(HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]))
        writer.send(chunk: completion.event(completion.chunk(delta: ["role": .string("assistant"), "content": .string("")])))
        /// Sends what `text` has beyond its first `count` bytes as the delta's `key`.
        func send(_ key: String, _ text: String, after count: inout Int) throws {
            let bytes = text.utf8
            guard bytes.count > count, let delta = String(bytes.dropFirst(count)) else { return }
            count = bytes.count
            guard writer.send(chunk: completion.event(completion.chunk(delta: [key: .string(delta)]))) else { throw CancellationError() }
        }
        var reasoningSent = 0
        var contentSent = 0
        do {
            let answer = try await run(request) { turn, settled in
                try send("reasoning_content", turn.reasoningText, after: &reasoningSent)
                if turn.calls.isEmpty { try send("content", settled, after: &contentSent) }
            }
            let turn = answer.turn
            if turn.calls.isEmpty { try send("content", answer.content, after: &contentSent) }
            let message = completion.message(of: turn, content: answer.content)
            if let calls = message["tool_calls"]?.arrayValue {
                let indexed = calls.enumerated().map { index, call -> JSONValue in
                    var object = call.objectValue ?? [:]
                    object.members.insert(.init(key: "index", value: .number(JSONNumber(index))), at: 0)
                    return .object(object)
                }
                writer.send(chunk: completion.event(completion.chunk(delta: ["tool_calls": .array(indexed)])))
            }
            let reason = answer.stopped ? "stop" : completion.finishReason(of: turn, request: request)
            writer.send(chunk: completion.event(completion.chunk(delta: [:], finishReason: reason)))
            if request.includeUsage { writer.send(chunk: completion.event(completion.usageChunk(turn.usage))) }
        } catch {
            guard let response = Self.errorResponse(error) else { return }
            writer.send(chunk: Array("data: ".utf8) + response.body + Array("\n\n".utf8))
        }
        writer.send(chunk: Array("data: [DONE]\n\n".utf8))
    }

    /// Reads a request and compiles its grammar on a thread of its own, before the request
    /// waits for the model: compiling may take a while, and must hold neither a thread of the
    /// tasks' shared pool nor a place among the requests that run.
    private func read(_ body: [UInt8]) async -> Result<ChatCompletionRequest, any Error> {
        let model = self.model
        let toolCallFormat = self.toolCallFormat
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    returning: Result {
                        var request = try ChatCompletionRequest(body: body)
                        if request.generation.generationOptions.toolCallFormat == nil {
                            request.generation.generationOptions.toolCallFormat = toolCallFormat
                        }
                        try model.prepare(request.generation)
                        return request
                    })
            }
        }
    }

    /// Runs the request's turn and ends it where its text first holds one of the request's stop
    /// sequences. `onRead` gets the turn so far and its settled text: the response text less a
    /// tail that could still begin a stop sequence. The answer's content is the response text up
    /// to the stop sequence.
    private func run(
        _ request: ChatCompletionRequest, onRead: (_ turn: ChannelTurn, _ settled: String) throws -> Void
    ) async throws -> (turn: ChannelTurn, content: String, stopped: Bool) {
        var stops = StopSequences(request.stop)
        var stoppedAt: (turn: ChannelTurn, content: String)?
        do {
            let turn = try await model.turn(request.generation, json: request.isJSON, cancellation: CancellationFlag()) { turn, _ in
                if turn.calls.isEmpty, let content = stops.cut(turn.responseText) {
                    stoppedAt = (turn, content)
                    throw StopSequences.Reached()
                }
                try onRead(turn, stops.settled(turn.responseText))
            }
            return (turn, turn.responseText, false)
        } catch is StopSequences.Reached {
            guard let stoppedAt else { throw CancellationError() }
            return (stoppedAt.turn, stoppedAt.content, true)
        }
    }

    /// The response that reports an error; `nil` when the client has gone.
    private static func errorResponse(_ error: any Error) -> HTTPResponse? {
        switch error {
        case is CancellationError:
            return nil
        case let error as LanguageModelSession.GenerationError:
            let message = [error.errorDescription, error.failureReason].compactMap { $0 }.joined(separator: " ")
            switch error {
            case .exceededContextWindowSize: return ServerErrorBody.response(status: 400, message: message, code: "context_length_exceeded")
            case .unsupportedGuide: return ServerErrorBody.response(status: 400, message: message, code: "unsupported_schema")
            case .decodingFailure: return ServerErrorBody.response(status: 400, message: message, code: "response_incomplete")
            case .concurrentRequests, .rateLimited: return ServerErrorBody.response(status: 503, message: message, headers: [("Retry-After", "1")])
            default: return ServerErrorBody.response(status: 500, message: message)
            }
        default:
            return ServerErrorBody.response(status: 500, message: "\(error)")
        }
    }
}
