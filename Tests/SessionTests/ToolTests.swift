import Foundation
import GuidedGeneration
import Synchronization
import Testing

/// The cities a weather lookup was called with.
final class CallLog: Sendable {
    let cities = Mutex<[String]>([])
}

/// A weather lookup that records its calls.
struct WeatherTool: Tool {
    let name = "getWeather"
    let description = "Gives the weather in a city today."
    let log = CallLog()

    @Generable
    struct Arguments {
        @Guide(description: "The city")
        var city: String
        @Guide(.range(1...7))
        var days: Int
    }

    func call(arguments: Arguments) async throws -> String {
        log.cities.withLock { $0.append(arguments.city) }
        return "Sunny in \(arguments.city) for \(arguments.days) days"
    }

    var cities: [String] { log.cities.withLock { $0 } }
}

/// Two tools that each wait for the other to have started: they only finish when they run
/// concurrently.
final class Rendezvous: Sendable {
    private let started = Mutex(0)

    func arrive() async throws {
        started.withLock { $0 += 1 }
        for _ in 0..<500 {
            if started.withLock({ $0 }) >= 2 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
    }
}

struct WaitingTool: Tool {
    let name: String
    let description = "Waits for the other tool."
    let rendezvous: Rendezvous

    @Generable
    struct Arguments {
        var note: String
    }

    func call(arguments: Arguments) async throws -> GeneratedContent {
        try await rendezvous.arrive()
        return GeneratedContent(properties: ["tool": name, "note": arguments.note])
    }
}

struct BrokenTool: Tool {
    struct Failure: Error, Equatable {}
    let description = "Always fails."

    @Generable
    struct Arguments {
        var query: String
    }

    func call(arguments: Arguments) async throws -> String {
        throw Failure()
    }
}

/// A tool whose schema the model is not shown.
struct Lookup: Tool {
    let description = "Looks a word up."
    let includesSchemaInInstructions = false

    @Generable
    struct Arguments {
        var word: String
    }

    func call(arguments: Arguments) async throws -> String { "a word" }
}

/// A turn of tool calls, as the model writes it.
func toolCall(_ calls: String...) -> String {
    #"{"tool_calls":["# + calls.joined(separator: ",") + "]}"
}

/// A turn with the answer, as the model writes it.
func answer(_ json: String) -> String {
    #"{"answer":"# + json + "}"
}

func toolSession(_ model: ScriptedModel, tools: [any Tool]) -> LanguageModelSession {
    LanguageModelSession(model: SystemLanguageModel(backend: model), tools: tools, instructions: "Use the tools.")
}

@Suite struct ToolTests {
    static let parisCall = #"{"name":"getWeather","arguments":{"city":"Paris","days":3}}"#

    @Test func scriptedCallThenAnswer() async throws {
        let weather = WeatherTool()
        let model = ScriptedModel(replies: [toolCall(Self.parisCall), answer(#""It is sunny in Paris.""#)])
        let session = toolSession(model, tools: [weather])
        let response = try await session.respond(to: "Weather in Paris?")
        #expect(response.content == "It is sunny in Paris.")
        #expect(weather.cities == ["Paris"])
        let entries = Array(session.transcript)
        guard entries.count == 5, case .instructions(let instructions) = entries[0], case .toolCalls(let calls) = entries[2],
            case .toolOutput(let output) = entries[3], case .response = entries[4]
        else {
            Issue.record("unexpected entries \(entries)")
            return
        }
        #expect(instructions.toolDefinitions.map(\.name) == ["getWeather"])
        #expect(calls.map(\.toolName) == ["getWeather"])
        #expect(calls.first?.arguments.jsonString == #"{"city":"Paris","days":3}"#)
        #expect(output.id == calls.first?.id)
        #expect(output.segments.map(\.id).count == 1)
        #expect(response.transcriptEntries.count == 4)
        // The model read the tool's name and description verbatim, then the call and its output.
        let first = try #require(model.conversations.first { $0.contains("Weather in Paris?") })
        #expect(first.contains(#""name":"getWeather","description":"Gives the weather in a city today.""#))
        #expect(first.contains(#""days":{"type":"integer","minimum":1,"maximum":7}"#))
        let last = try #require(model.conversations.last)
        #expect(last.contains("<|assistant|>" + toolCall(Self.parisCall) + "<|end|>"))
        #expect(last.contains("<|user|><tool_response>\nSunny in Paris for 3 days\n</tool_response>\nReply with {\"answer\": …} if this is what you needed.<|end|>"))
    }

    @Test func argumentsOutsideTheSchemaCannotBeWritten() async throws {
        let weather = WeatherTool()
        // The script calls a tool that does not exist, then one with a day count out of range.
        let model = ScriptedModel(replies: [
            toolCall(#"{"name":"getTime","arguments":{}}"#), toolCall(#"{"name":"getWeather","arguments":{"city":"Oslo","days":99}}"#), answer(#""Done""#),
        ])
        let session = toolSession(model, tools: [weather])
        let response = try await session.respond(to: "Weather?", options: GenerationOptions(sampling: .greedy))
        for case .toolCalls(let calls) in session.transcript {
            for call in calls {
                #expect(call.toolName == "getWeather")
                let arguments = try WeatherTool.Arguments(call.arguments)
                #expect((1...7).contains(arguments.days))
            }
        }
        #expect(!weather.cities.isEmpty)
        #expect(!response.content.isEmpty)
    }

    @Test func generableAnswerAfterACall() async throws {
        let weather = WeatherTool()
        let reply = #"{"name":"Rex","age":3,"tags":["sunny"]}"#
        let session = toolSession(ScriptedModel(replies: [toolCall(Self.parisCall), answer(reply)]), tools: [weather])
        let response = try await session.respond(to: "A pet for today's weather", generating: Pet.self)
        #expect(response.content == Pet(name: "Rex", age: 3, tags: ["sunny"]))
        #expect(weather.cities == ["Paris"])
    }

    @Test func answerWithoutACall() async throws {
        let weather = WeatherTool()
        let model = ScriptedModel(replies: [answer(#""<b>Hi</b>, \"no\" tools\nneeded.""#), answer(#""Bye""#)])
        let session = toolSession(model, tools: [weather])
        let response = try await session.respond(to: "Hello")
        #expect(response.content == "<b>Hi</b>, \"no\" tools\nneeded.")
        // The answer is shown to the model again as it wrote it.
        _ = try await session.respond(to: "Goodbye")
        #expect(model.conversations.last?.contains(#"<|assistant|>{"answer":"<b>Hi</b>, \"no\" tools\nneeded."}<|end|>"#) == true)
        #expect(weather.cities.isEmpty)
        #expect(session.transcript.count == 5)
    }

    @Test func theBudgetCutsATextAnswerShort() async throws {
        let session = toolSession(ScriptedModel(replies: [answer(#""A long answer that goes on and on""#)]), tools: [WeatherTool()])
        let response = try await session.respond(to: "Talk", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 20))
        #expect(!response.content.isEmpty && response.content.count < 20)
        #expect("A long answer that goes on and on".hasPrefix(response.content))
    }

    @Test func twoToolsRunConcurrently() async throws {
        let rendezvous = Rendezvous()
        let tools: [any Tool] = [
            WaitingTool(name: "first", rendezvous: rendezvous), WaitingTool(name: "second", rendezvous: rendezvous),
        ]
        let calls = toolCall(#"{"name":"first","arguments":{"note":"a"}}"#, #"{"name":"second","arguments":{"note":"b"}}"#)
        let session = toolSession(ScriptedModel(replies: [calls, answer(#""Both done""#)]), tools: tools)
        let response = try await session.respond(to: "Run both")
        #expect(response.content == "Both done")
        let outputs = session.transcript.compactMap { entry -> Transcript.ToolOutput? in
            if case .toolOutput(let output) = entry { return output }
            return nil
        }
        #expect(outputs.map(\.toolName) == ["first", "second"])
        #expect(outputs.first?.segments.first.map { segment in
            if case .structure(let structure) = segment { return structure.content.jsonString }
            return ""
        } == #"{"tool":"first","note":"a"}"#)
    }

    /// With one call a turn (`parallel_tool_calls: false`), a model that would write two calls
    /// at once writes the first, reads its output, and calls again; without the limit, the same
    /// model makes both calls in one turn.
    @Test(arguments: [nil, 1])
    func aTurnHoldsAsManyCallsAsAllowed(maximum: Int?) async throws {
        let oslo = #"{"name":"getWeather","arguments":{"city":"Oslo","days":1}}"#
        let rome = #"{"name":"getWeather","arguments":{"city":"Rome","days":1}}"#
        let weather = WeatherTool()
        let replies = maximum == 1 ? [toolCall(oslo, rome), toolCall(rome), answer(#""Done""#)] : [toolCall(oslo, rome), answer(#""Done""#)]
        let session = toolSession(ScriptedModel(replies: replies), tools: [weather])
        var options = GenerationOptions(sampling: .greedy)
        options.maximumToolCallsPerTurn = maximum
        let response = try await session.respond(to: "Weather in Oslo and Rome?", options: options)
        #expect(response.content == "Done")
        let turns = session.transcript.compactMap { entry -> Int? in
            if case .toolCalls(let calls) = entry { return calls.count }
            return nil
        }
        #expect(turns == (maximum == 1 ? [1, 1] : [2]))
        #expect(weather.cities.sorted() == ["Oslo", "Rome"])
    }

    @Test func throwingToolRollsTheTranscriptBack() async throws {
        let session = toolSession(ScriptedModel(replies: [toolCall(#"{"name":"BrokenTool","arguments":{"query":"x"}}"#), answer(#""Never""#)]), tools: [BrokenTool()])
        let before = session.transcript
        do {
            _ = try await session.respond(to: "Try it")
            Issue.record("the tool's error was not thrown")
        } catch let error as LanguageModelSession.ToolCallError {
            #expect(error.tool.name == "BrokenTool")
            #expect(error.underlyingError is BrokenTool.Failure)
            #expect(error.errorDescription?.contains("BrokenTool") == true)
        }
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    static func weatherCall(_ city: String) -> String {
        toolCall(#"{"name":"getWeather","arguments":{"city":"\#(city)","days":1}}"#)
    }

    @Test func toolRoundsAreBounded() async throws {
        let weather = WeatherTool()
        let cities = ["Paris", "Rome", "Oslo", "Lima", "Kyiv"]
        let model = ScriptedModel(replies: cities.map(Self.weatherCall) + [answer(#""Finally""#)], contextSize: 4096)
        let session = toolSession(model, tools: [weather])
        session.maximumToolRounds = 2
        let before = session.transcript
        do {
            _ = try await session.respond(to: "Weather?")
            Issue.record("the round limit was not enforced")
        } catch let error as LanguageModelSession.ToolRoundLimitError {
            #expect(error.limit == 2)
            #expect(error.toolCalls.count == 3)
            #expect(error.errorDescription?.contains("getWeather") == true)
        }
        #expect(weather.cities == ["Paris", "Rome"])
        #expect(session.transcript == before)
        // With more rounds allowed, the same script ends with the answer.
        session.maximumToolRounds = 5
        let response = try await session.respond(to: "Weather?")
        #expect(response.content == "Finally")
        #expect(weather.cities == ["Paris", "Rome"] + cities)
    }

    @Test func aRepeatedCallIsAnsweredInstead() async throws {
        let weather = WeatherTool()
        let model = ScriptedModel(replies: Array(repeating: Self.weatherCall("Paris"), count: 4))
        let session = toolSession(model, tools: [weather])
        let response = try await session.respond(to: "Weather?", options: GenerationOptions(sampling: .greedy))
        #expect(weather.cities == ["Paris"])
        let kinds = session.transcript.map { entry in
            switch entry {
            case .instructions: "instructions"
            case .prompt: "prompt"
            case .toolCalls: "calls"
            case .toolOutput: "output"
            case .response: "response"
            case .reasoning: "reasoning"
            case .data: "data"
            }
        }
        #expect(kinds == ["instructions", "prompt", "calls", "output", "response"])
        #expect(response.transcriptEntries.count == 4)
    }

    @Test func transcriptWithToolsRoundTripsAndContinues() async throws {
        let weather = WeatherTool()
        let model = ScriptedModel(replies: [toolCall(Self.parisCall), answer(#""Sunny.""#), answer(#""Still sunny.""#)])
        let session = toolSession(model, tools: [weather])
        _ = try await session.respond(to: "Weather in Paris?")
        let data = try JSONEncoder().encode(session.transcript)
        let decoded = try JSONDecoder().decode(Transcript.self, from: data)
        #expect(decoded == session.transcript)
        let continued = LanguageModelSession(model: SystemLanguageModel(backend: model), tools: [weather], transcript: decoded)
        let response = try await continued.respond(to: "And tomorrow?")
        #expect(response.content == "Still sunny.")
        #expect(model.conversations.last?.contains(toolCall(Self.parisCall)) == true)
        #expect(continued.transcript.count == decoded.count + 2)
    }

    @Test func toolDefinitionsWithoutSchema() async throws {
        let model = ScriptedModel(replies: [answer(#""Fine""#)])
        let session = toolSession(model, tools: [Lookup()])
        _ = try await session.respond(to: "Hi")
        let text = try #require(model.conversations.last)
        #expect(text.contains(#"{"name":"Lookup","description":"Looks a word up."}"#))
        #expect(!text.contains("\"word\""))
        let count = try await SystemLanguageModel(backend: model).tokenCount(for: [Lookup()] as [any Tool])
        #expect(count > 20)
    }

    @Test func streamingShowsOnlyTheAnswer() async throws {
        let weather = WeatherTool()
        let session = toolSession(ScriptedModel(replies: [toolCall(Self.parisCall), answer(#""Sunny all week""#)]), tools: [weather])
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "Weather?") { snapshots.append(snapshot.content) }
        #expect(snapshots.last == "Sunny all week")
        #expect(snapshots.allSatisfy { !$0.contains("tool") })
        #expect(weather.cities == ["Paris"])
    }
}

/// A tool written against the first beta of the API, returning the deprecated `ToolOutput`.
protocol LegacyOutputs {
    static func outputs() -> [any PromptRepresentable]
}

enum FirstBetaCode: LegacyOutputs {
    @available(*, deprecated)
    static func outputs() -> [any PromptRepresentable] {
        [ToolOutput("Sunny"), ToolOutput(GeneratedContent(properties: ["degrees": 21]))]
    }
}

@Suite struct ToolOutputTests {
    /// Called through the protocol, so that the deprecated code compiles without a warning.
    func outputs<Code: LegacyOutputs>(of code: Code.Type) -> [any PromptRepresentable] {
        Code.outputs()
    }

    @Test func firstBetaOutputsBecomePrompts() {
        let prompts = outputs(of: FirstBetaCode.self).map { $0.promptRepresentation.description }
        #expect(prompts == ["Sunny", #"{"degrees":21}"#])
    }
}
