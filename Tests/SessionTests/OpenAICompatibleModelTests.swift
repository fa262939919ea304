import Foundation
import PartialJSON
import Testing

@testable import GuidedGeneration

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chat-completions client: the request it sends, how it reads a server's event stream, and
/// what a server's errors become. Sessions on real servers are in the end-to-end tests.
@Suite struct OpenAICompatibleModelTests {
    static func request(schema: GenerationSchema? = nil, tools: [Transcript.ToolDefinition] = [], options: GenerationOptions) -> LanguageModelExecutorGenerationRequest {
        let transcript = Transcript(entries: [
            .instructions(Transcript.Instructions(segments: [.text(Transcript.TextSegment(content: "Be brief."))], toolDefinitions: tools)),
            .prompt(
                Transcript.Prompt(
                    segments: [.text(Transcript.TextSegment(content: "A dog"))], responseFormat: schema.map(Transcript.ResponseFormat.init(schema:)))),
            .reasoning(Transcript.Reasoning(segments: [.text(Transcript.TextSegment(content: "Weather first."))])),
            .toolCalls(Transcript.ToolCalls([Transcript.ToolCall(id: "c1", toolName: "getWeather", arguments: GeneratedContent(properties: ["city": "Oslo"]))])),
            .toolOutput(Transcript.ToolOutput(id: "c1", toolName: "getWeather", segments: [.text(Transcript.TextSegment(content: "Rain"))])),
        ])
        return LanguageModelExecutorGenerationRequest(
            id: UUID(), transcript: transcript, enabledTools: tools, schema: schema, generationOptions: options, contextOptions: ContextOptions(), metadata: [:])
    }

    @Test func theRequestCarriesTheSchemaToolsOptionsAndMessages() throws {
        let tool = Transcript.ToolDefinition(tool: WeatherTool())
        let body = try ChatCompletionRequest.body(
            for: Self.request(schema: Pet.generationSchema, tools: [tool], options: GenerationOptions(samplingMode: .random(probabilityThreshold: 0.8, seed: 7), temperature: 0.5, maximumResponseTokens: 90)),
            model: "m")
        #expect(body["model"]?.stringValue == "m")
        #expect(body["stream"] == .bool(true))
        #expect(body["top_p"]?.numberValue?.description == "0.8" && body["seed"]?.numberValue?.description == "7")
        #expect(body["temperature"]?.numberValue?.description == "0.5" && body["max_tokens"]?.numberValue?.description == "90")
        let format = try #require(body["response_format"])
        #expect(format["type"]?.stringValue == "json_schema" && format["json_schema"]?["strict"] == .bool(true))
        #expect(format["json_schema"]?["schema"]?["properties"]?["age"] != nil)
        #expect(body["tools"]?.arrayValue?[0]["function"]?["name"]?.stringValue == "getWeather" && body["tool_choice"]?.stringValue == "auto")
        let roles = body["messages"]?.arrayValue?.compactMap { $0["role"]?.stringValue }
        #expect(roles == ["system", "user", "assistant", "tool"])
        let system = body["messages"]?.arrayValue?[0]["content"]?.stringValue ?? ""
        #expect(system.contains("\"age\": integer"), "the schema is described in the system message when the prompt asks for it")
        #expect(body["messages"]?.arrayValue?[1]["content"]?.stringValue == "A dog")
        #expect(body["messages"]?.arrayValue?[2]["tool_calls"]?.arrayValue?[0]["function"]?["arguments"]?.stringValue == #"{"city":"Oslo"}"#)
        #expect(body["messages"]?.arrayValue?[3]["tool_call_id"]?.stringValue == "c1")
        // Reasoning rides on the assistant message after it.
        #expect(body["messages"]?.arrayValue?[2]["reasoning_content"]?.stringValue == "Weather first.")
        #expect(body["messages"]?.arrayValue?[1]["reasoning_content"] == nil)

        let greedy = try ChatCompletionRequest.body(for: Self.request(options: GenerationOptions(samplingMode: .greedy, temperature: 0.9)), model: "m")
        #expect(greedy["temperature"]?.numberValue?.description == "0" && greedy["response_format"] == nil && greedy["tools"] == nil)
        let required = try ChatCompletionRequest.body(
            for: Self.request(tools: [tool], options: GenerationOptions(samplingMode: .random(top: 5), temperature: nil, maximumResponseTokens: nil, toolCallingMode: .required)),
            model: "m")
        #expect(required["tool_choice"]?.stringValue == "required" && required["top_k"]?.numberValue?.description == "5")
        let named = try ChatCompletionRequest.body(
            for: Self.request(tools: [tool], options: GenerationOptions(toolCallingMode: .required(toolNamed: "getWeather"))), model: "m")
        #expect(named["tool_choice"]?["type"]?.stringValue == "function" && named["tool_choice"]?["function"]?["name"]?.stringValue == "getWeather")
    }

    /// A served model is not sent a text grammar: the request is refused before it is sent,
    /// rather than answered without the grammar.
    @Test func aTextGrammarIsRefusedRatherThanIgnored() async throws {
        var options = GenerationOptions()
        options.textGrammar = .regex("[0-9]+")
        let model = OpenAICompatibleLanguageModel(baseURL: try #require(URL(string: "http://127.0.0.1:9/v1")), model: "m")
        await #expect {
            try await LanguageModelSession(model: model).respond(to: "A number", options: options)
        } throws: { error in
            guard case LanguageModelSession.GenerationError.unsupportedGuide(let context) = error else { return false }
            return context.debugDescription.contains("text grammars")
        }
    }

    @Test func theEventStreamIsReadWhateverItsPieces() throws {
        let stream = """
            : a comment\r
            data: {"choices":[{"delta":{"role":"assistant","content":"{\\"name\\":"}}]}\r
            \r
            data: {"choices":[{"delta":{"content":"\\"Rex\\"}"}}]}

            data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_9","function":{"name":"getWeather","arguments":"{\\"ci"}}]}}]}

            data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\\":\\"Oslo\\"}"}}]}}]}

            data: {"choices":[],"usage":{"prompt_tokens":31,"completion_tokens":9,"prompt_tokens_details":{"cached_tokens":4}}}

            data: [DONE]


            """
        let bytes = Array(stream.utf8)
        // Every way of cutting the stream in two gives the same events.
        for cut in stride(from: 0, through: bytes.count, by: 7) {
            var reader = ChatCompletionStreamReader()
            var turn = ChannelTurn(json: true)
            for event in try reader.read(Data(bytes[..<cut])) + reader.read(Data(bytes[cut...])) + reader.finish() { _ = try turn.read(event) }
            #expect(turn.responseText == #"{"name":"Rex"}"#)
            #expect(turn.calls.count == 1)
            #expect(turn.calls.first?.id == "call_9" && turn.calls.first?.name == "getWeather" && turn.calls.first?.arguments == #"{"city":"Oslo"}"#)
            #expect(turn.usage.input.totalTokenCount == 31 && turn.usage.input.cachedTokenCount == 4 && turn.usage.output.totalTokenCount == 9)
        }
        var refusing = ChatCompletionStreamReader()
        _ = try refusing.read(Data((#"data: {"choices":[{"delta":{"refusal":"I cannot help."}}]}"# + "\n\n").utf8))
        #expect(throws: LanguageModelError.self) { try refusing.finish() }
        var broken = ChatCompletionStreamReader()
        #expect(throws: LanguageModelSession.GenerationError.self) { try broken.read(Data("data: {not json\n\n".utf8)) }
    }

    @Test func serverErrorsBecomeTheErrorsOfTheirMeaning() {
        let limited = OpenAICompatibleLanguageModel.Executor.error(status: 429, headers: ["retry-after": "30"], body: Data(#"{"error":{"message":"slow"}}"#.utf8))
        guard case LanguageModelError.rateLimited(let payload)? = limited as? LanguageModelError else {
            Issue.record("429 gave \(limited)")
            return
        }
        #expect(payload.resetDate.map { $0.timeIntervalSinceNow > 20 } == true)
        let context = OpenAICompatibleLanguageModel.Executor.error(
            status: 400, headers: [:],
            body: Data(#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","n_prompt_tokens":5000,"n_ctx":4096}}"#.utf8))
        guard case LanguageModelError.contextSizeExceeded(let size)? = context as? LanguageModelError else {
            Issue.record("a context error gave \(context)")
            return
        }
        #expect(size.contextSize == 4096 && size.tokenCount == 5000)
        #expect(LanguageModelError.contextSizeExceeded(size).generationError.map { if case .exceededContextWindowSize = $0 { true } else { false } } == true)
        let other = OpenAICompatibleLanguageModel.Executor.error(status: 500, headers: [:], body: Data("boom".utf8))
        #expect((other as? OpenAICompatibleLanguageModel.ServerError)?.message == "boom")
    }
}
