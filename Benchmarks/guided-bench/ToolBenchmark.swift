import Foundation
import GuidedGeneration

/// `guided-bench tools`: tool calling on the real model. A session whose instructions demand a
/// lookup gets 20 varied questions (greedy); the benchmark counts how many the model answers by
/// calling a tool, and how many answers use what the tool returned. Then it times a follow-up
/// turn against the first turn of the same session, and against the same follow-up on a fresh
/// session given the same transcript (nothing cached: the peer).
struct ToolBenchmark {
    var modelPath: String?
    var verbose = false

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--model":
                guard let value = remaining.popFirst() else { throw UsageError(description: "--model needs a value") }
                modelPath = value
            case "--verbose": verbose = true
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
    }

    /// Questions the instructions say to answer with a lookup; the tool each needs.
    static let questions: [(String, String)] = [
        ("What is the weather in Paris?", "getWeather"), ("Is it raining in London today?", "getWeather"),
        ("How warm is it in Tokyo?", "getWeather"), ("Should I take an umbrella in Berlin?", "getWeather"),
        ("What's the forecast for New York?", "getWeather"), ("Tell me the weather in Madrid.", "getWeather"),
        ("Is it sunny in Rome right now?", "getWeather"), ("How cold is it in Oslo?", "getWeather"),
        ("Weather in Sydney, please.", "getWeather"), ("Do I need a coat in Chicago today?", "getWeather"),
        ("What is Anna's phone number?", "findContact"), ("How can I call Tom Baker?", "findContact"),
        ("Give me Maria's number.", "findContact"), ("I need to phone my dentist, Dr. Lee.", "findContact"),
        ("What number does John Smith have?", "findContact"), ("Find the phone number of Sophie.", "findContact"),
        ("Look up Carlos in my contacts.", "findContact"), ("Call my sister Emma: what is her number?", "findContact"),
        ("What is the phone number of the plumber, Mike?", "findContact"), ("Do I have a number for Aisha?", "findContact"),
    ]

    static let instructions = """
        You are an assistant with tools. You do not know the weather or anyone's phone number: \
        always call a tool to look them up first, then answer with what the tool returned.
        """

    func run() async throws {
        let model = modelPath.map { SystemLanguageModel(modelPath: $0) } ?? .default
        try await model.load { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        let tools: [any Tool] = [WeatherLookup(), ContactLookup()]
        var called = 0
        var rightTool = 0
        var usedOutput = 0
        for (question, expected) in Self.questions {
            let session = LanguageModelSession(model: model, tools: tools, instructions: Self.instructions)
            let response = try await session.respond(to: question, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 120))
            let calls = session.transcript.flatMap { entry -> [Transcript.ToolCall] in
                if case .toolCalls(let calls) = entry { return Array(calls) }
                return []
            }
            let outputs = session.transcript.compactMap { entry -> String? in
                if case .toolOutput(let output) = entry {
                    return output.segments.map { segment in
                        if case .text(let text) = segment { return text.content }
                        return ""
                    }.joined()
                }
                return nil
            }
            if !calls.isEmpty { called += 1 }
            if calls.contains(where: { $0.toolName == expected }) { rightTool += 1 }
            let uses = outputs.contains { output in Self.facts(of: output).contains { response.content.contains($0) } }
            if uses { usedOutput += 1 }
            if verbose {
                print("\(question)\n  calls: \(calls.map { "\($0.toolName)(\($0.arguments.jsonString))" })\n  answer: \(response.content)")
            }
        }
        print("questions that demand a lookup: \(Self.questions.count)")
        print("answered with a tool call:      \(called)  (the right tool: \(rightTool))")
        print("answers that use the output:    \(usedOutput)")
        try await timeFollowUp(model: model, tools: tools)
    }

    /// The words of a tool's output that an answer using it would repeat: numbers and names.
    static func facts(of output: String) -> [String] {
        output.split(whereSeparator: { " ,.;:\"{}".contains($0) }).map(String.init).filter { $0.count >= 2 && $0.first?.isNumber == true }
    }

    /// The first turn, the follow-up on the same session (its prefix cached), and the same
    /// follow-up on a fresh session from the same transcript (nothing cached).
    private func timeFollowUp(model: SystemLanguageModel, tools: [any Tool]) async throws {
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: 60)
        let session = LanguageModelSession(model: model, tools: tools, instructions: Self.instructions)
        let clock = ContinuousClock()
        let first = try await clock.measure { _ = try await session.respond(to: Self.questions[0].0, options: options) }
        let transcript = session.transcript
        let followUp = "And what should I wear there?"
        let cached = try await clock.measure { _ = try await session.respond(to: followUp, options: options) }
        let cachedStatistics = session.statistics
        let fresh = LanguageModelSession(model: model, tools: tools, transcript: transcript)
        let cold = try await clock.measure { _ = try await fresh.respond(to: followUp, options: options) }
        let coldStatistics = fresh.statistics
        func seconds(_ duration: Duration) -> Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18 }
        print(String(format: "first turn:                     %.2f s", seconds(first)))
        print(
            String(
                format: "follow-up, same session:        %.2f s  (%d of %d prompt tokens cached, %d response tokens)", seconds(cached),
                cachedStatistics?.cachedPromptTokens ?? 0, cachedStatistics?.promptTokens ?? 0, cachedStatistics?.responseTokens ?? 0))
        print(
            String(
                format: "follow-up, fresh session (peer): %.2f s  (%d of %d prompt tokens cached, %d response tokens)", seconds(cold),
                coldStatistics?.cachedPromptTokens ?? 0, coldStatistics?.promptTokens ?? 0, coldStatistics?.responseTokens ?? 0))
        print(String(format: "follow-up / first turn: %.2f   cached / fresh follow-up: %.2f", seconds(cached) / seconds(first), seconds(cached) / seconds(cold)))
    }
}

/// A weather lookup with made-up figures that depend on the city.
struct WeatherLookup: Tool {
    let name = "getWeather"
    let description = "Gets today's weather in a city."

    @Generable
    struct Arguments {
        @Guide(description: "The city's name")
        var city: String
    }

    func call(arguments: Arguments) async throws -> String {
        let degrees = 5 + arguments.city.unicodeScalars.reduce(0) { $0 + Int($1.value) } % 25
        return "\(arguments.city): \(degrees) °C, light rain"
    }
}

/// A contacts lookup with made-up numbers that depend on the name.
struct ContactLookup: Tool {
    let name = "findContact"
    let description = "Finds the phone number of a person in the user's contacts."

    @Generable
    struct Arguments {
        @Guide(description: "The person's name")
        var name: String
    }

    func call(arguments: Arguments) async throws -> String {
        let digits = arguments.name.unicodeScalars.reduce(7) { ($0 * 31 + Int($1.value)) % 10_000_000 }
        return "\(arguments.name): +1 555 \(String(format: "%07d", digits))"
    }
}
