import Foundation
import GuidedGeneration
import Synchronization
import Testing

/// What a ``ReplayModel``'s executors saw: how many were made, and the requests they answered.
final class ReplayLog: Sendable {
    let executorsMade = Mutex(0)
    let requests = Mutex<[LanguageModelExecutorGenerationRequest]>([])
}

/// A model brought by a third party, written as Apple's session on providers shows: a light
/// model type and an executor that streams each scripted turn into the channel in small pieces.
struct ReplayModel: LanguageModel {
    typealias Executor = ReplayExecutor

    /// One scripted turn: text, tool calls (name and arguments JSON), or an error to throw.
    enum Turn: Sendable {
        case text(String)
        case calls([(name: String, arguments: String)])
        case failure(LanguageModelError)
        /// Reasoning in two pieces, then a replacement of it and a signature, then the text.
        case reasoned(String)
        /// The text, then segments of other kinds: attachments added and removed, custom
        /// segments added and updated.
        case withSegments(String, [LanguageModelExecutorGenerationChannel.Response.Action])
    }

    let turns: [Turn]
    var capabilityList: [LanguageModelCapabilities.Capability] = [.toolCalling, .guidedGeneration]
    let log = ReplayLog()

    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities(capabilityList) }

    var executorConfiguration: Executor.Configuration { Executor.Configuration(name: "replay") }
}

struct ReplayExecutor: LanguageModelExecutor {
    typealias Model = ReplayModel

    struct Configuration: Hashable, Sendable {
        var name: String
    }

    init(configuration: Configuration) throws {}

    func respond(
        to request: LanguageModelExecutorGenerationRequest, model: ReplayModel, streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        if model.log.requests.withLock({ $0.isEmpty }) { model.log.executorsMade.withLock { $0 += 1 } }
        let index = model.log.requests.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        await channel.send(.response(action: .updateMetadata(["modelID": "replay-1"])))
        switch model.turns[min(index, model.turns.count - 1)] {
        case .text(let text):
            // Three characters at a time, as a server's deltas come.
            var rest = Substring(text)
            while !rest.isEmpty {
                await channel.send(.response(action: .appendText(String(rest.prefix(3)), tokenCount: 1)))
                rest = rest.dropFirst(3)
            }
        case .calls(let calls):
            for (number, call) in calls.enumerated() {
                let id = "call-\(index)-\(number)"
                for piece in [String(call.arguments.prefix(4)), String(call.arguments.dropFirst(4))] {
                    await channel.send(.toolCalls(action: .toolCall(id: id, name: call.name, action: .appendArguments(piece, tokenCount: 1))))
                }
            }
        case .failure(let error):
            throw error
        case .reasoned(let text):
            await channel.send(.reasoning(action: .appendText("Two and", segmentID: "r", tokenCount: 2)))
            await channel.send(.reasoning(action: .appendText(" two", segmentID: "r", tokenCount: 1)))
            await channel.send(.reasoning(action: .replaceTextSegment("Two and two make four.", segmentID: "r", tokenCount: 2)))
            await channel.send(.reasoning(action: .updateSignature(Data([1, 2, 3]), tokenCount: 0)))
            await channel.send(.response(action: .appendText(text, tokenCount: 1)))
        case .withSegments(let text, let actions):
            await channel.send(.response(action: .appendText(text, tokenCount: 1)))
            for action in actions { await channel.send(.response(action: action)) }
        }
        let reasoning = if case .reasoned = model.turns[min(index, model.turns.count - 1)] { 5 } else { 0 }
        await channel.send(.response(action: .updateUsage(input: .init(totalTokenCount: 40, cachedTokenCount: 8), output: .init(totalTokenCount: 12, reasoningTokenCount: reasoning))))
    }
}

@Suite struct ProviderModelTests {
    @Test func textThroughTheExecutorBecomesTheResponseAndTheTranscript() async throws {
        let model = ReplayModel(turns: [.text("Hello from a served model.")])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        let response = try await session.respond(to: "Say hello")
        #expect(response.content == "Hello from a served model.")
        let entries = Array(session.transcript)
        #expect(entries.count == 3)
        guard case .response(let answer) = entries.last else {
            Issue.record("no response entry in \(entries)")
            return
        }
        #expect(answer.segments.count == 1)
        let request = try #require(model.log.requests.withLock { $0.first })
        #expect(request.transcript.count == 2)
        #expect(request.schema == nil)
        #expect(session.statistics?.promptTokens == 40)
        #expect(session.statistics?.responseTokens == 12)
        _ = try await session.respond(to: "Again")
        #expect(session.usage.input.totalTokenCount == 80 && session.usage.input.cachedTokenCount == 16 && session.usage.output.totalTokenCount == 24)
    }

    /// Reasoning events become a reasoning entry before the response (its text replaced as the
    /// executor said, with the signature); the response carries the request's usage.
    @Test func reasoningBecomesAnEntryAndTheResponseCarriesItsUsage() async throws {
        let model = ReplayModel(turns: [.reasoned("Four.")])
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "Two plus two?")
        #expect(response.content == "Four.")
        let entries = Array(session.transcript)
        guard entries.count == 3, case .reasoning(let reasoning) = entries[1], case .response = entries[2] else {
            Issue.record("no reasoning entry before the response in \(entries)")
            return
        }
        #expect(reasoning.segments.text == "Two and two make four.")
        #expect(reasoning.segments.first?.id == "r")
        #expect(reasoning.signature == Data([1, 2, 3]))
        #expect(Array(response.transcriptEntries).count == 3)
        #expect(response.usage.input.totalTokenCount == 40 && response.usage.output.totalTokenCount == 12 && response.usage.output.reasoningTokenCount == 5)
        #expect(response.usage == session.usage)
        let streamed = try await session.streamResponse(to: "And three plus three?").collect()
        #expect(streamed.usage == response.usage)
        #expect(session.usage.output.reasoningTokenCount == 10)
    }

    @Test func generableContentStreamsAsSnapshotsAndIsCheckedAgainstTheSchema() async throws {
        let reply = #"{"name":"Rex","age":3,"tags":["good","dog"]}"#
        let model = ReplayModel(turns: [.text(reply)])
        let session = LanguageModelSession(model: model)
        var names: [String?] = []
        var last: Pet.PartiallyGenerated?
        for try await snapshot in session.streamResponse(to: "A dog", generating: Pet.self) {
            names.append(snapshot.content.name)
            last = snapshot.content
        }
        #expect(names.count > 5, "a snapshot per delta that changed the content")
        #expect(names.contains(nil) || names.contains("R") || names.contains("Re"))
        #expect(last?.name == "Rex" && last?.age == 3 && last?.tags == ["good", "dog"])
        let request = try #require(model.log.requests.withLock { $0.first })
        #expect(request.schema != nil)
        #expect(request.contextOptions.includeSchemaInPrompt == true)
    }

    @Test func contentThatBreaksTheSchemaIsADecodingFailureNamingWhere() async throws {
        for reply in [#"{"name":"Rex","age":30,"tags":[]}"#, #"{"name":"Rex","age":3,"tags":[]"#, "Sure! Here is a pet."] {
            let session = LanguageModelSession(model: ReplayModel(turns: [.text(reply)]))
            do {
                _ = try await session.respond(to: "A dog", generating: Pet.self)
                Issue.record("\(reply) was accepted")
            } catch LanguageModelSession.GenerationError.decodingFailure(let context) {
                #expect(!context.debugDescription.isEmpty)
                if reply.contains("30") { #expect(context.debugDescription.contains("age"), "\(context.debugDescription)") }
            }
            #expect(session.transcript.isEmpty, "a failed request leaves the transcript as it was")
        }
    }

    @Test func toolCallsRunBetweenTurnsWithTheirOutputsInTheTranscript() async throws {
        let weather = WeatherTool()
        let model = ReplayModel(turns: [.calls([("getWeather", #"{"city":"Paris","days":2}"#)]), .text("Sunny in Paris.")])
        let session = LanguageModelSession(model: model, tools: [weather], instructions: "Use the tools.")
        let response = try await session.respond(to: "Weather in Paris?")
        #expect(response.content == "Sunny in Paris.")
        #expect(weather.cities == ["Paris"])
        let requests = model.log.requests.withLock { $0 }
        #expect(requests.count == 2)
        #expect(requests[0].enabledToolDefinitions.map(\.name) == ["getWeather"])
        guard case .toolOutput(let output) = requests[1].transcript.last else {
            Issue.record("the second turn does not end with the tool's output")
            return
        }
        #expect(output.id == "call-0-0")
        #expect(model.log.executorsMade.withLock { $0 } == 1, "one executor per configuration per session")
        let disallowed = LanguageModelSession(model: ReplayModel(turns: [.text("No tools.")]), tools: [weather])
        _ = try await disallowed.respond(to: "Hi", options: GenerationOptions(samplingMode: .greedy, toolCallingMode: .disallowed))
    }

    /// Each tool-calling mode, turn by turn, as OpenAI's `tool_choice` reads: `allowed` (auto)
    /// lets every turn call; `required` makes the first turn call and lets the next answer;
    /// `disallowed` (none) offers no tool.
    @Test(arguments: [GenerationOptions.ToolCallingMode.allowed, .required, .disallowed])
    func eachToolCallingModeHoldsItsTurns(mode: GenerationOptions.ToolCallingMode) async throws {
        let weather = WeatherTool()
        let turns: [ReplayModel.Turn] = mode == .disallowed ? [.text("No tools.")] : [.calls([("getWeather", #"{"city":"Oslo","days":1}"#)]), .text("Cold.")]
        let model = ReplayModel(turns: turns)
        let session = LanguageModelSession(model: model, tools: [weather])
        _ = try await session.respond(to: "Weather in Oslo?", options: GenerationOptions(samplingMode: .greedy, toolCallingMode: mode))
        let requests = model.log.requests.withLock { $0 }
        let kinds = requests.map { $0.generationOptions.toolCallingMode?.kind }
        let offered = requests.map { $0.enabledToolDefinitions.map(\.name) }
        switch mode.kind {
        case .allowed:
            #expect(kinds == [.allowed, .allowed] && offered == [["getWeather"], ["getWeather"]])
        case .required:
            #expect(kinds == [.required, .allowed] && offered == [["getWeather"], ["getWeather"]])
        case .disallowed:
            #expect(kinds == [.disallowed] && offered == [[]])
        }
        #expect(weather.cities == (mode == .disallowed ? [] : ["Oslo"]))
    }

    /// A required mode that names a tool offers only that tool in the first turn, then every
    /// tool; a name the session has no tool of is refused before the model runs.
    @Test func aNamedToolIsTheOneCalledFirst() async throws {
        let weather = WeatherTool()
        let model = ReplayModel(turns: [.calls([("getWeather", #"{"city":"Oslo","days":1}"#)]), .text("Cold.")])
        let session = LanguageModelSession(model: model, tools: [Lookup(), weather])
        let options = GenerationOptions(samplingMode: .greedy, toolCallingMode: .required(toolNamed: "getWeather"))
        _ = try await session.respond(to: "Weather in Oslo?", options: options)
        let requests = model.log.requests.withLock { $0 }
        #expect(requests.map { $0.enabledToolDefinitions.map(\.name) } == [["getWeather"], [Lookup().name, "getWeather"]])
        #expect(requests.map { $0.generationOptions.toolCallingMode?.kind } == [.required, .allowed])
        let unknown = LanguageModelSession(model: ReplayModel(turns: [.text("x")]), tools: [weather])
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await unknown.respond(to: "Hi", options: GenerationOptions(toolCallingMode: .required(toolNamed: "book")))
        }
    }

    @Test func whatTheModelCannotDoIsRefusedWithoutCallingIt() async throws {
        let model = ReplayModel(turns: [.text("{}")], capabilityList: [])
        let session = LanguageModelSession(model: model)
        await #expect(throws: LanguageModelError.self) { try await session.respond(to: "A dog", generating: Pet.self) }
        #expect(model.log.requests.withLock { $0.isEmpty })
        let text = try await session.respond(to: "Hi")
        #expect(text.content == "{}")
    }

    @Test func theExecutorsErrorsReachTheCaller() async throws {
        let limited = LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "slow down"))
        let session = LanguageModelSession(model: ReplayModel(turns: [.failure(limited)]))
        do {
            _ = try await session.respond(to: "Hi")
            Issue.record("no error")
        } catch LanguageModelSession.GenerationError.rateLimited(let context) {
            #expect(context.debugDescription == "slow down")
        }
        #expect(!session.isResponding)
    }

    @Test func contextOptionsAndMetadataReachTheExecutor() async throws {
        let model = ReplayModel(turns: [.text("Fine.")])
        let session = LanguageModelSession(model: model)
        _ = try await session.respond(to: "Hi", contextOptions: ContextOptions(reasoningLevel: .deep), metadata: ["user": "anna"])
        let request = try #require(model.log.requests.withLock { $0.first })
        #expect(request.contextOptions.reasoningLevel == .deep)
        #expect(request.metadata["user"]?.jsonString == #""anna""#)
        let pets = ReplayModel(turns: [.text(#"{"name":"Rex","age":3,"tags":[]}"#)])
        let petSession = LanguageModelSession(model: pets)
        let pet = try await petSession.respond(to: "A dog", generating: Pet.self, contextOptions: ContextOptions(includeSchemaInPrompt: false))
        #expect(pet.content.name == "Rex")
        let petRequest = try #require(pets.log.requests.withLock { $0.first })
        #expect(petRequest.contextOptions.includeSchemaInPrompt == false)
        guard case .prompt(let prompt)? = petRequest.transcript.last else {
            Issue.record("the request does not end with the prompt")
            return
        }
        #expect(prompt.responseFormat == nil)
    }

    @Test func theEmbeddedEnginesExecutorRunsUnderAnotherModel() async throws {
        let reply = #"{"name":"Rex","age":3,"tags":["good","dog"]}"#
        let base = SystemLanguageModel(backend: ScriptedModel(replies: [reply]))
        #expect(base.capabilities.contains(.guidedGeneration) && base.capabilities.contains(.toolCalling))
        let session = LanguageModelSession(model: WrappingModel(base: base))
        let pet = try await session.respond(to: "A dog", generating: Pet.self, options: GenerationOptions(samplingMode: .greedy))
        #expect(pet.content == Pet(name: "Rex", age: 3, tags: ["good", "dog"]))
        #expect((session.statistics?.responseTokens ?? 0) > 0)

        let weather = WeatherTool()
        let scripted = ScriptedModel(replies: [toolCall(ToolTests.parisCall), answer(#""It is sunny in Paris.""#)])
        let withTools = LanguageModelSession(model: WrappingModel(base: SystemLanguageModel(backend: scripted)), tools: [weather], instructions: "Use the tools.")
        let answer = try await withTools.respond(to: "Weather in Paris?", options: GenerationOptions(samplingMode: .greedy))
        #expect(weather.cities == ["Paris"])
        #expect(answer.content == "It is sunny in Paris.")
    }
}

/// A model of a third party that runs the embedded engine's executor under its own name.
struct WrappingModel: LanguageModel {
    typealias Executor = WrappingExecutor
    let base: SystemLanguageModel

    var capabilities: LanguageModelCapabilities { base.capabilities }
    var executorConfiguration: Executor.Configuration { Executor.Configuration(base: base.executorConfiguration) }
}

struct WrappingExecutor: LanguageModelExecutor {
    typealias Model = WrappingModel

    struct Configuration: Hashable, Sendable {
        var base: SystemLanguageModel.Executor.Configuration
    }

    let base: SystemLanguageModel.Executor

    init(configuration: Configuration) throws {
        base = SystemLanguageModel.Executor(configuration: configuration.base)
    }

    func respond(
        to request: LanguageModelExecutorGenerationRequest, model: WrappingModel, streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws {
        try await base.respond(to: request, model: model.base, streamingInto: channel)
    }
}
