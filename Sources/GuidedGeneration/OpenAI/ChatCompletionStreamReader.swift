import Foundation
import PartialJSON

/// Reads a chat-completions event stream into channel events: content deltas as response text,
/// `reasoning_content` as reasoning, tool-call deltas (their id and name given once per index)
/// as calls with arguments, and usage; a refusal or an error in the stream is thrown.
struct ChatCompletionStreamReader {
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
            let reported = OpenAIWireValue.usage(from: usage)
            out.append(.response(action: .updateUsage(input: reported.input, output: reported.output)))
        }
        return out
    }
}
