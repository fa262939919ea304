import ConstrainedDecoding
import Foundation
@testable import GuidedGeneration
import PartialJSON
import Synchronization
import Testing

/// A scripted model whose template has its own tool-call format, as Qwen2.5's does: the tools
/// in the system message, calls in `<tool_call>` tags after an assistant's content, outputs in
/// `<tool_response>` tags in a user turn.
final class TaggedTemplateModel: LanguageModelBackend, LoadedLanguageModel, @unchecked Sendable {
    let scripted: ScriptedModel
    private let log = Mutex<[String]>([])

    init(replies: [String]) {
        scripted = ScriptedModel(replies: replies)
    }

    /// The conversations rendered with tools so far.
    var conversations: [String] { log.withLock { $0 } }

    var availability: SystemLanguageModel.Availability { .available }
    var contextSize: Int { scripted.contextSize }
    func load(progress: @Sendable (String) -> Void) throws -> any LoadedLanguageModel { self }
    var tokenBytes: [[UInt8]] { scripted.tokenBytes }
    var specialTokens: Set<Int32> { scripted.specialTokens }
    var stopTokens: Set<Int32> { scripted.stopTokens }
    func tokenize(_ text: String, parsingSpecialTokens: Bool) -> [Int32] { scripted.tokenize(text, parsingSpecialTokens: parsingSpecialTokens) }
    func conversationText(_ messages: [ConversationMessage]) throws -> String { scripted.conversationText(messages) }
    func makeContext(size: Int) throws -> any LanguageModelContext { try scripted.makeContext(size: size) }

    func conversationText(_ messages: [ConversationMessage], tools: [JSONValue]) throws -> String? {
        var text = "<|system|>" + (messages.first { $0.role == .system }?.content ?? "") + "\n<tools>\n"
        text += tools.map(\.jsonString).joined(separator: "\n") + "\n</tools><|end|>"
        var inOutputs = false
        for message in messages where message.role != .system {
            if inOutputs, message.role != .tool { text += "<|end|>" }
            switch message.role {
            case .user: text += "<|user|>" + message.content + "<|end|>"
            case .assistant:
                text += "<|assistant|>" + message.content
                for call in message.toolCalls {
                    text += "\n<tool_call>\n{\"name\": \"\(call.name)\", \"arguments\": \(call.arguments.jsonString)}\n</tool_call>"
                }
                text += "<|end|>"
            case .tool:
                if !inOutputs { text += "<|user|>" }
                text += "<tool_response>\n" + message.content + "\n</tool_response>"
            case .system: break
            }
            inOutputs = message.role == .tool
        }
        if inOutputs { text += "<|end|>" }
        text += "<|assistant|>"
        log.withLock { $0.append(text) }
        return text
    }
}

@Suite struct TaggedToolCallTests {
    static let weather = Transcript.ToolDefinition(tool: WeatherTool())
    static let lookup = Transcript.ToolDefinition(name: "lookup", description: "Looks a word up.", parameters: Lookup.Arguments.generationSchema)

    static let paris = "<tool_call>\n{\"name\": \"getWeather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>"
    static let rome = "<tool_call>\n{\"name\": \"getWeather\", \"arguments\": {\"city\": \"Rome\", \"days\": 1}}\n</tool_call>"
    static let word = "<tool_call>\n{\"name\": \"lookup\", \"arguments\": {\"word\": \"cat\"}}\n</tool_call>"

    /// The grammar of a turn, compiled as the local model compiles it.
    static func grammar(
        _ tools: [Transcript.ToolDefinition], answer: JSONValue? = nil, requiresCall: Bool = false, maximumCalls: Int? = nil
    ) throws -> CompiledGrammar {
        let lark = try TaggedToolCalls.grammar(tools: tools, answer: answer, requiresCall: requiresCall, maximumCalls: maximumCalls)
        return try CompiledGrammar(lark: lark, options: CompileOptions(whitespace: .flexible(maximum: 1)))
    }

    static func accepts(_ grammar: CompiledGrammar, _ text: String) -> Bool {
        GrammarMatcher(grammar: grammar).accepts(document: Array(text.utf8))
    }

    @Test func textOrCallsOfTheTools() throws {
        let grammar = try Self.grammar([Self.weather, Self.lookup])
        for text in ["It is sunny.", "<b>bold</b>", "<tool_calls>", "a\nb", Self.paris, Self.word, Self.paris + "\n" + Self.word, Self.paris + "\n" + Self.rome] {
            let accepted = Self.accepts(grammar, text)
            #expect(accepted, "should accept \(text.debugDescription)")
        }
        let refused = [
            "",
            "<tool_cal",
            "<tool_call>\nIt is sunny.",
            "<tool_call>\n{\"name\": \"getTime\", \"arguments\": {}}\n</tool_call>",
            "<tool_call>\n{\"name\": \"getWeather\", \"arguments\": {\"city\": \"Paris\", \"days\": 30}}\n</tool_call>",
            "<tool_call>\n{\"name\": \"getWeather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
            "<tool_call>\n{\"name\": \"lookup\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>",
            Self.paris + "\nand some text",
            Self.paris + Self.rome,
        ]
        for text in refused {
            let accepted = Self.accepts(grammar, text)
            #expect(!accepted, "should refuse \(text.debugDescription)")
        }
    }

    @Test func requiredNamedNoneAndOneCall() throws {
        let required = try Self.grammar([Self.weather, Self.lookup], requiresCall: true)
        #expect(!Self.accepts(required, "It is sunny."))
        #expect(Self.accepts(required, Self.paris) && Self.accepts(required, Self.word))
        // A named tool: the session passes only that tool's definition.
        let named = try Self.grammar([Self.lookup], requiresCall: true)
        #expect(Self.accepts(named, Self.word))
        #expect(!Self.accepts(named, Self.paris) && !Self.accepts(named, "cat"))
        // None: text only.
        let none = try Self.grammar([])
        #expect(Self.accepts(none, "It is sunny."))
        #expect(!Self.accepts(none, Self.paris))
        // One call a turn.
        let one = try Self.grammar([Self.weather, Self.lookup], maximumCalls: 1)
        #expect(Self.accepts(one, Self.paris))
        #expect(!Self.accepts(one, Self.paris + "\n" + Self.word))
        let two = try Self.grammar([Self.weather], maximumCalls: 2)
        #expect(Self.accepts(two, Self.paris + "\n" + Self.rome))
        #expect(!Self.accepts(two, Self.paris + "\n" + Self.rome + "\n" + Self.paris))
    }

    @Test func aSchemaAnswerReplacesTheText() throws {
        let answer = try JSONValue(parsing: #"{"type":"object","properties":{"temperature":{"type":"integer"}},"required":["temperature"]}"#)
        let grammar = try Self.grammar([Self.weather], answer: answer)
        #expect(Self.accepts(grammar, #"{"temperature": 21}"#) && Self.accepts(grammar, Self.paris))
        #expect(!Self.accepts(grammar, "It is sunny.") && !Self.accepts(grammar, #"{"temperature": "warm"}"#))
    }

    @Test func callsAreReadFromTheText() throws {
        let calls = try #require(try TaggedToolCalls.calls(in: Self.paris + "\n" + Self.word))
        #expect(calls.map { $0.name } == ["getWeather", "lookup"])
        #expect(calls.map { $0.arguments } == [#"{"city":"Paris","days":3}"#, #"{"word":"cat"}"#])
        #expect(try TaggedToolCalls.calls(in: "It is sunny.") == nil)
        #expect(throws: (any Error).self) { try TaggedToolCalls.calls(in: "<tool_call>\nnot json\n</tool_call>") }
    }

    @Test func templateToolsAreOpenAIFunctions() throws {
        let tools = TaggedToolCalls.templateTools([Self.weather])
        let function = try #require(tools.first?.objectValue?["function"]?.objectValue)
        #expect(tools.first?.objectValue?["type"] == .string("function"))
        #expect(function["name"] == .string("getWeather"))
        #expect(function["description"] == .string("Gives the weather in a city today."))
        #expect(function["parameters"]?.objectValue?["properties"]?.objectValue?["days"] != nil)
    }

    @Test func aSessionCallsThroughTheTemplateAndAnswers() async throws {
        let weather = WeatherTool()
        let model = TaggedTemplateModel(replies: [Self.paris + "\n" + Self.rome, "It is sunny in Paris and rainy in Rome."])
        let session = LanguageModelSession(model: SystemLanguageModel(backend: model), tools: [weather], instructions: "Use the tools.")
        var options = GenerationOptions()
        options.toolCallFormat = .modelTemplate
        let response = try await session.respond(to: "Weather in Paris and Rome?", options: options)
        #expect(response.content == "It is sunny in Paris and rainy in Rome.")
        #expect(weather.cities.sorted() == ["Paris", "Rome"])
        let entries = Array(session.transcript)
        guard entries.count == 6, case .toolCalls(let calls) = entries[2], case .toolOutput(let first) = entries[3], case .toolOutput = entries[4],
            case .response = entries[5]
        else {
            Issue.record("unexpected entries \(entries)")
            return
        }
        #expect(calls.map(\.toolName) == ["getWeather", "getWeather"])
        #expect(calls.map(\.arguments.jsonString) == [#"{"city":"Paris","days":3}"#, #"{"city":"Rome","days":1}"#])
        #expect(first.id == calls.first?.id)
        // The template presented the tools and read back the calls and their outputs in its format.
        let conversations = model.conversations
        #expect(conversations.count == 2)
        #expect(conversations.first?.contains(#""type":"function","function":{"name":"getWeather""#) == true)
        #expect(conversations.first?.hasPrefix("<|system|>Use the tools.\n<tools>") == true)
        let last = try #require(conversations.last)
        #expect(last.contains("<|assistant|>\n<tool_call>\n{\"name\": \"getWeather\", \"arguments\": {\"city\":\"Paris\",\"days\":3}}\n</tool_call>"))
        #expect(last.contains("<|user|><tool_response>\nSunny in Paris for 3 days\n</tool_response><tool_response>\nSunny in Rome for 1 days\n</tool_response><|end|><|assistant|>"))
    }

    @Test func parallelCallsOffMakesOneCallATurn() async throws {
        let weather = WeatherTool()
        // The script asks for two calls; the grammar ends the turn after the first.
        let model = TaggedTemplateModel(replies: [Self.paris + "\n" + Self.rome, Self.rome, "Done."])
        let session = LanguageModelSession(model: SystemLanguageModel(backend: model), tools: [weather], instructions: "Use the tools.")
        var options = GenerationOptions()
        options.toolCallFormat = .modelTemplate
        options.maximumToolCallsPerTurn = 1
        let response = try await session.respond(to: "Weather in Paris and Rome?", options: options)
        #expect(response.content == "Done.")
        #expect(weather.cities == ["Paris", "Rome"])
        let rounds = session.transcript.compactMap { entry -> Int? in if case .toolCalls(let calls) = entry { calls.count } else { nil } }
        #expect(rounds == [1, 1])
    }

    @Test func disallowedCallsGiveTheAnswer() async throws {
        let model = TaggedTemplateModel(replies: ["It is sunny."])
        let session = LanguageModelSession(model: SystemLanguageModel(backend: model), tools: [WeatherTool()], instructions: "Use the tools.")
        var options = GenerationOptions(toolCallingMode: .disallowed)
        options.toolCallFormat = .modelTemplate
        let response = try await session.respond(to: "Weather in Paris?", options: options)
        #expect(response.content == "It is sunny.")
        #expect(!session.transcript.contains { if case .toolCalls = $0 { true } else { false } })
    }

    @Test func aModelWithoutTheFormatAnswersInTheJSONTurn() async throws {
        let weather = WeatherTool()
        let model = ScriptedModel(replies: [toolCall(ToolTests.parisCall), answer(#""Sunny.""#)])
        var options = GenerationOptions()
        options.toolCallFormat = .modelTemplate
        let response = try await toolSession(model, tools: [weather]).respond(to: "Weather in Paris?", options: options)
        #expect(response.content == "Sunny.")
        #expect(weather.cities == ["Paris"])
    }
}
