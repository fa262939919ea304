import Foundation
@testable import GuidedGeneration
import Testing

/// A request body's sampling fields, read as llama-server and OpenAI name them into the
/// options of the sampling chain; a bad value refused by name.
@Suite struct ChatCompletionRequestTests {
    static func request(_ fields: String) throws(ChatCompletionRequest.Invalid) -> ChatCompletionRequest {
        try ChatCompletionRequest(body: Array(#"{"messages":[{"role":"user","content":"Hi."}]\#(fields)}"#.utf8))
    }

    @Test func samplingFieldsSetTheirStagesAndNothingElse() throws {
        let plain = try Self.request("").generation.generationOptions
        #expect(plain.samplingSettings == nil && plain.samplingPreset == nil && plain.sampling == nil)

        let options = try Self.request(
            #","temperature":0.5,"top_k":40,"top_p":0.8,"seed":7,"min_p":0.05,"repeat_penalty":1.1,"repeat_last_n":32,"frequency_penalty":0.5,"presence_penalty":-0.5,"logit_bias":{"42":-100,"7":2.5},"dry_multiplier":0.8,"dry_base":2,"dry_allowed_length":3,"dry_sequence_breakers":["\n"],"preset":"faithful""#
        ).generation.generationOptions
        #expect(options.temperature == 0.5)
        #expect(options.sampling == .random(top: 40, seed: 7))
        let settings = try #require(options.samplingSettings)
        #expect(settings.topP == 0.8 && settings.minP == 0.05 && settings.repetitionPenalty == 1.1 && settings.penaltyWindow == 32)
        #expect(settings.frequencyPenalty == 0.5 && settings.presencePenalty == -0.5)
        #expect(settings.logitBias == [42: -100, 7: 2.5])
        #expect(settings.dry == DRYSettings(multiplier: 0.8, base: 2, allowedLength: 3, sequenceBreakers: ["\n"]))
        #expect(options.samplingPreset == .faithful)
        #expect(try Self.request(#","preset":"small-model""#).generation.generationOptions.samplingPreset == .smallModel)
    }

    @Test func badSamplingFieldsAreRefusedByName() {
        for (fields, parameter) in [
            (#","preset":"creative""#, "preset"), (#","preset":1"#, "preset"), (#","min_p":2"#, "min_p"),
            (#","repeat_penalty":"high""#, "repeat_penalty"), (#","logit_bias":{"word":1}"#, "logit_bias"), (#","top_k":1.5"#, "top_k"),
            (#","seed":1.5"#, "seed"), (#","seed":18446744073709551616"#, "seed"),
        ] {
            do {
                _ = try Self.request(fields)
                Issue.record("\(fields) was accepted")
            } catch {
                #expect(error.parameter == parameter, "\(fields): \(error.message)")
            }
        }
    }

    /// Each server's name for a text grammar sets it; a second one, a grammar beside JSON or
    /// tools, a value of the wrong type, an unknown `structured_outputs` member and a grammar
    /// that does not compile are refused naming the field.
    @Test func grammarFieldsSetTheTextGrammarOrAreRefusedByName() throws {
        let gbnf = #"root ::= \"yes\" | \"no\""#
        for (fields, grammar) in [
            (#","grammar":"\#(gbnf)""#, TextGrammar.gbnf(#"root ::= "yes" | "no""#)),
            (#","guided_grammar":"\#(gbnf)""#, .gbnf(#"root ::= "yes" | "no""#)),
            (#","guided_regex":"[0-9]{3}""#, .regex("[0-9]{3}")),
            (#","guided_choice":["red","blue"]"#, .choices(["red", "blue"])),
            (#","structured_outputs":{"regex":"[a-z]+"}"#, .regex("[a-z]+")),
            (#","structured_outputs":{"choice":["a"]}"#, .choices(["a"])),
            (#","structured_outputs":{"grammar":"\#(gbnf)"}"#, .gbnf(#"root ::= "yes" | "no""#)),
            // vLLM's grammars without '::=' are Lark; OpenAI's response_format of type grammar.
            (#","guided_grammar":"start: \"yes\" | \"no\"""#, .lark(#"start: "yes" | "no""#)),
            (#","structured_outputs":{"grammar":"start: /[0-9]+/"}"#, .lark("start: /[0-9]+/")),
            (#","response_format":{"type":"grammar","grammar":"start: \"a\""}"#, .lark(#"start: "a""#)),
            (#","response_format":{"type":"grammar","grammar":"\#(gbnf)"}"#, .gbnf(#"root ::= "yes" | "no""#)),
            (#","response_format":{"type":"grammar","grammar":{"definition":"[a-z]+","syntax":"regex"}}"#, .regex("[a-z]+")),
            (#","response_format":{"type":"grammar","grammar":{"definition":"start: \"a\"","syntax":"lark"}}"#, .lark(#"start: "a""#)),
        ] {
            #expect(try Self.request(fields).generation.generationOptions.textGrammar == grammar, "\(fields)")
        }
        #expect(try Self.request("").generation.generationOptions.textGrammar == nil)
        for json in [#"{"type":"object","properties":{"a":{"type":"integer"}}}"#, #""{\"type\":\"object\"}""#] {
            let read = try Self.request(#","structured_outputs":{"json":\#(json)}"#)
            #expect(read.isJSON && read.generation.generationOptions.textGrammar == nil, "\(json)")
        }
        let tool = #","tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}}]"#
        #expect(try Self.request(#","guided_regex":"a"\#(tool),"tool_choice":"none""#).generation.generationOptions.textGrammar == .regex("a"))
        for (fields, parameter) in [
            (#","grammar":"root ::= \"a\"","guided_regex":"a""#, "guided_regex"),
            (#","guided_regex":"a","response_format":{"type":"json_object"}"#, "guided_regex"),
            (#","guided_regex":"a"\#(tool)"#, "guided_regex"),
            (#","guided_choice":[]"#, "guided_choice"), (#","guided_choice":"a""#, "guided_choice"), (#","grammar":7"#, "grammar"),
            (#","structured_outputs":{"yaml":"a"}"#, "structured_outputs.yaml"), (#","structured_outputs":"a""#, "structured_outputs"),
            (#","structured_outputs":{"json":{"type":"object"}},"response_format":{"type":"json_object"}"#, "structured_outputs.json"),
            (#","structured_outputs":{"json":"{"}"#, "structured_outputs.json"), (#","structured_outputs":{"json":7}"#, "structured_outputs.json"),
            (#","structured_outputs":{"json":{"type":"object"},"regex":"a"}"#, "structured_outputs.regex"),
            (#","grammar":"root ::= missing""#, "grammar"), (#","guided_regex":"(a""#, "guided_regex"),
            (#","response_format":{"type":"grammar"}"#, "response_format.grammar"),
            (#","response_format":{"type":"grammar","grammar":{"definition":"a","syntax":"python"}}"#, "response_format.grammar"),
            (#","response_format":{"type":"grammar","grammar":"start: <|eot|>"}"#, "response_format.grammar"),
            (#","response_format":{"type":"grammar","grammar":"start: \"a\""},"guided_regex":"a""#, "response_format.grammar"),
            (#","guided_grammar":"start: A\nA: A \"x\"""#, "guided_grammar"),
        ] {
            do {
                _ = try Self.request(fields)
                Issue.record("\(fields) was accepted")
            } catch {
                #expect(error.parameter == parameter, "\(fields): \(error.message)")
            }
        }
        do {
            _ = try Self.request(#","grammar":"root ::= item\nitem ::= \"x\" undefined""#)
            Issue.record("an undefined rule was accepted")
        } catch {
            #expect(error.message.contains("no rule is named 'undefined'") && error.message.contains("line 2"), "\(error.message)")
        }
    }

    /// `tool_choice` as OpenAI defines it: `none` offers no tool, `auto` (and no choice) lets the
    /// model call, `required` makes it call, a named function makes it call that one;
    /// `parallel_tool_calls` false allows one call a turn.
    @Test func toolChoiceAndParallelCallsAreRead() throws {
        let tools = #","tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}},{"type":"function","function":{"name":"g"}}]"#
        for (choice, kind, offered) in [
            ("", GenerationOptions.ToolCallingMode.Kind.allowed, ["f", "g"]), (#","tool_choice":"auto""#, .allowed, ["f", "g"]),
            (#","tool_choice":"none""#, .disallowed, []), (#","tool_choice":"required""#, .required, ["f", "g"]),
            (#","tool_choice":{"type":"function","function":{"name":"g"}}"#, .required, ["g"]),
        ] {
            let generation = try Self.request(tools + choice).generation
            #expect((generation.generationOptions.toolCallingMode?.kind ?? .allowed) == kind, "\(choice)")
            #expect(generation.enabledToolDefinitions.map(\.name) == offered, "\(choice)")
            #expect(generation.generationOptions.maximumToolCallsPerTurn == nil)
        }
        #expect(try Self.request(tools + #","parallel_tool_calls":false"#).generation.generationOptions.maximumToolCallsPerTurn == 1)
        #expect(try Self.request(tools + #","parallel_tool_calls":true"#).generation.generationOptions.maximumToolCallsPerTurn == nil)
        for (fields, parameter) in [
            (#","tool_choice":{"type":"function","function":{"name":"h"}}"#, "tool_choice"), (#","tool_choice":"sometimes""#, "tool_choice"),
            (#","parallel_tool_calls":"no""#, "parallel_tool_calls"),
        ] {
            do {
                _ = try Self.request(tools + fields)
                Issue.record("\(fields) was accepted")
            } catch {
                #expect(error.parameter == parameter, "\(fields): \(error.message)")
            }
        }
    }

    /// What the client writes for a request, `guided serve` reads back into the same options,
    /// tools and conversation: both ends speak the protocol through the same type.
    @Test func aWrittenRequestReadsBackToTheSameOptions() throws {
        let settings = SamplingSettings(
            minP: 0.05, repetitionPenalty: 1.1, frequencyPenalty: 0.5, presencePenalty: -0.5, penaltyWindow: 32,
            dry: DRYSettings(multiplier: 0.8, base: 2, allowedLength: 3, sequenceBreakers: ["\n"]), logitBias: [42: -100, 7: 2.5])
        var withStages = GenerationOptions(samplingMode: .random(probabilityThreshold: 0.8, seed: 7), temperature: 0.5, maximumResponseTokens: 90)
        withStages.samplingSettings = settings
        var oneCall = GenerationOptions(samplingMode: .greedy)
        oneCall.maximumToolCallsPerTurn = 1
        let cases = [
            oneCall,
            GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 12),
            GenerationOptions(samplingMode: .random(top: 40, seed: 3), temperature: 0.7),
            GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9, seed: UInt64.max), temperature: 1.2),
            withStages,
        ]
        let tool = Transcript.ToolDefinition(
            name: "getWeather", description: "The weather in a city.",
            parameters: try GenerationSchema(jsonSchema: .object(["type": .string("object"), "properties": .object(["city": .object(["type": .string("string")])])])))
        for options in cases {
            let transcript = Transcript(entries: [
                .instructions(Transcript.Instructions(segments: [.text(.init(content: "Be brief."))], toolDefinitions: [tool])),
                .prompt(Transcript.Prompt(segments: [.text(.init(content: "Weather in Oslo?"))])),
                .toolCalls(Transcript.ToolCalls([Transcript.ToolCall(id: "c1", toolName: "getWeather", arguments: GeneratedContent(properties: ["city": "Oslo"]))])),
                .toolOutput(Transcript.ToolOutput(id: "c1", toolName: "getWeather", segments: [.text(.init(content: "Rain"))])),
            ])
            let written = LanguageModelExecutorGenerationRequest(
                id: UUID(), transcript: transcript, enabledTools: [tool], schema: nil, generationOptions: options, contextOptions: ContextOptions(),
                metadata: [:])
            let body = try ChatCompletionRequest.body(for: written, model: "m")
            let read = try ChatCompletionRequest(body: Array(body.jsonString.utf8)).generation
            let back = read.generationOptions
            #expect(back.sampling == options.sampling, "\(body.jsonString)")
            #expect(back.temperature == options.temperature && back.maximumResponseTokens == options.maximumResponseTokens)
            #expect(back.samplingSettings == options.samplingSettings)
            #expect(back.maximumToolCallsPerTurn == options.maximumToolCallsPerTurn)
            #expect(read.enabledToolDefinitions.map(\.name) == ["getWeather"])
            #expect(read.transcript.map(\.kindName) == transcript.map(\.kindName))
        }
    }
}

extension Transcript.Entry {
    /// The kind of entry, for comparing conversations by their shape.
    fileprivate var kindName: String {
        switch self {
        case .instructions: "instructions"
        case .prompt: "prompt"
        case .response: "response"
        case .reasoning: "reasoning"
        case .toolCalls: "toolCalls"
        case .toolOutput: "toolOutput"
        case .data: "data"
        }
    }
}
