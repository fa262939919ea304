import Foundation
import GuidedGeneration
import PartialJSON
import Synchronization

/// `guided-bench tool-session`: chat-completion requests answered through the Swift API, for a
/// client that measures tool calls (`Benchmarks/peers/bfcl.py --swift-session`). Each line of
/// standard input is a request body as an OpenAI client sends it (`messages`, `tools`,
/// `tool_choice`, `parallel_tool_calls`, `temperature`, `max_tokens`); each line of standard
/// output is `{"status": S, "body": B}`, B a chat completion whose message holds the calls the
/// model made in its first turn, or its text.
///
/// The request becomes what a Swift program writes: a `LanguageModelSession` with the system
/// messages as its instructions and each function as a `Tool` value whose parameters are
/// `GenerationSchema(jsonSchema:)`, asked `respond(to:options:)` with the last user message.
/// The tools do not run: each records its arguments and throws, so the session stops after the
/// turn that called them (every call of the turn is invoked, the calls running together), and
/// the calls are read from what the tools recorded.
struct ToolSessionCommand {
    var modelPath: String?

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--model":
                guard let value = remaining.popFirst() else { throw UsageError(description: "--model needs a value") }
                modelPath = value
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
    }

    func run() async throws {
        let model = modelPath.map { SystemLanguageModel(modelPath: $0) } ?? .default
        try await model.load { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        var served = 0
        while let line = readLine() {
            guard !line.isEmpty else { continue }
            let (status, body) = await answer(line, model: model, id: served)
            served += 1
            FileHandle.standardOutput.write(Data((JSONValue.object(["status": .number(JSONNumber(status)), "body": body]).jsonString + "\n").utf8))
        }
    }

    /// A request that cannot be read.
    struct RequestError: Error, CustomStringConvertible {
        let description: String
    }

    /// The status and body of one request.
    private func answer(_ line: String, model: SystemLanguageModel, id: Int) async -> (Int, JSONValue) {
        do {
            let request = try JSONValue(parsing: line)
            let (instructions, prompt) = try Self.conversation(of: request)
            let recorder = CallRecorder()
            let tools = try Self.tools(of: request, recorder: recorder)
            let session = LanguageModelSession(model: model, tools: tools, instructions: instructions)
            let options = try Self.options(of: request)
            var message: JSONObject = ["role": .string("assistant")]
            do {
                let response = try await session.respond(to: prompt, options: options)
                message.append(key: "content", value: .string(response.content))
            } catch let error as LanguageModelSession.ToolCallError where error.underlyingError is CallRecorder.Recorded {
                message.append(key: "content", value: .null)
                let calls = recorder.calls.enumerated().map { index, call -> JSONValue in
                    .object([
                        "id": .string("call_\(index)"), "type": .string("function"),
                        "function": .object(["name": .string(call.name), "arguments": .string(call.arguments.jsonString)]),
                    ])
                }
                message.append(key: "tool_calls", value: .array(calls))
            }
            let finish = message["tool_calls"] == nil ? "stop" : "tool_calls"
            let choice: JSONValue = .object(["index": .number(JSONNumber(0)), "message": .object(message), "finish_reason": .string(finish)])
            return (200, .object(["id": .string("session-\(id)"), "object": .string("chat.completion"), "choices": .array([choice])]))
        } catch let error as RequestError {
            return (400, .object(["error": .object(["message": .string(error.description)])]))
        } catch {
            return (500, .object(["error": .object(["message": .string(String(describing: error))])]))
        }
    }

    /// The instructions (the system messages) and the prompt (the last user message).
    static func conversation(of request: JSONValue) throws -> (instructions: String, prompt: String) {
        guard case .array(let messages)? = request["messages"] else { throw RequestError(description: "no messages") }
        var system: [String] = []
        var prompt: String?
        for message in messages {
            guard let role = message["role"]?.stringValue, let content = message["content"]?.stringValue else {
                throw RequestError(description: "a message without a role or text content")
            }
            switch role {
            case "system", "developer": system.append(content)
            case "user": prompt = content
            default: throw RequestError(description: "a message of role \(role): only system and user messages are read")
            }
        }
        guard let prompt else { throw RequestError(description: "no user message") }
        return (system.joined(separator: "\n\n"), prompt)
    }

    /// A `Tool` value for each function of the request.
    static func tools(of request: JSONValue, recorder: CallRecorder) throws -> [any Tool] {
        guard case .array(let tools)? = request["tools"] else { return [] }
        return try tools.map { tool in
            guard let function = tool["function"], let name = function["name"]?.stringValue else {
                throw RequestError(description: "a tool without a function name")
            }
            let parameters: GenerationSchema
            do {
                parameters = try GenerationSchema(jsonSchema: function["parameters"] ?? .object(["type": .string("object"), "properties": .object([:])]))
            } catch {
                throw RequestError(description: "the parameters of \(name): \(error)")
            }
            return RecordingTool(name: name, description: function["description"]?.stringValue ?? "", parameters: parameters, recorder: recorder)
        }
    }

    /// The options of the request: greedy at temperature 0, `max_tokens`, `tool_choice` and
    /// `parallel_tool_calls`.
    static func options(of request: JSONValue) throws -> GenerationOptions {
        var options = GenerationOptions()
        if let temperature = try? request["temperature"]?.numberValue?.doubleValue() {
            options = temperature == 0 ? GenerationOptions(sampling: .greedy) : GenerationOptions(temperature: temperature)
        }
        options.maximumResponseTokens = try? request["max_tokens"]?.numberValue?.intValue()
        switch request["tool_choice"] {
        case nil, .string("auto")?: break
        case .string("none")?: options.toolCallingMode = .disallowed
        case .string("required")?: options.toolCallingMode = .required
        case let choice?:
            guard let name = choice["function"]?["name"]?.stringValue else { throw RequestError(description: "tool_choice \(choice.jsonString)") }
            options.toolCallingMode = .required(toolNamed: name)
        }
        if case .bool(false)? = request["parallel_tool_calls"] { options.maximumToolCallsPerTurn = 1 }
        return options
    }
}

/// The calls the tools of one request were given, in the order they ran.
final class CallRecorder: Sendable {
    /// What a recording tool throws once it has recorded its call.
    struct Recorded: Error {}

    private let recorded = Mutex<[(name: String, arguments: GeneratedContent)]>([])

    func record(_ name: String, _ arguments: GeneratedContent) {
        recorded.withLock { $0.append((name, arguments)) }
    }

    var calls: [(name: String, arguments: GeneratedContent)] { recorded.withLock { $0 } }
}

/// A function of a request as a tool that records its call instead of running.
struct RecordingTool: Tool {
    let name: String
    let description: String
    let parameters: GenerationSchema
    let recorder: CallRecorder

    func call(arguments: GeneratedContent) async throws -> String {
        recorder.record(name, arguments)
        throw CallRecorder.Recorded()
    }
}
