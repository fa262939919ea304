import Foundation
import GuidedGeneration

/// `guided-bench quality`: the answers of the local model to prompts over the shapes of
/// `schemas/` (or over a schema of their own), greedy and at default sampling with fixed seeds,
/// with a sampling preset when asked, written one JSON record per answer (the output or the
/// error, tokens, seconds, and the chat messages the model read, so that a peer can be asked the
/// same). `Benchmarks/peers/quality.py` asks the peer and checks both.
struct QualityBenchmark {
    var modelPath: String?
    var promptsPath = "Benchmarks/cases/quality-prompts.jsonl"
    var schemasFolder = "schemas"
    var seeds = 3
    var maximumTokens = 1024
    var outputPath = "quality-guided.jsonl"
    var preset: SamplingPreset?
    /// The layout of the answers, or `nil` for the model's.
    var layout: JSONLayout?
    var fastForwards = true
    /// The model's threads, or `nil` for every core.
    var threads: Int?
    /// Whether a case with a schema is answered as free text from the same chat messages (the
    /// schema described, not enforced); the output is the JSON the text holds.
    var freeText = false
    /// Whether the prompt describes the schema (`includeSchemaInPrompt`); without it the model
    /// reads the request alone, as llama-server's model does, and only the grammar holds it to
    /// the schema.
    var describesSchema = true

    /// One line of the prompts file: a schema of `schemas/` by name, or one of its own as text.
    struct Case: Decodable {
        var schema: String?
        var schemaText: String?
        var prompt: String
    }

    init(arguments: [String]) throws {
        try forEachOption(in: arguments) { argument, value in
            switch argument {
            case "--model": modelPath = value
            case "--prompts": promptsPath = value
            case "--schemas": schemasFolder = value
            case "--out": outputPath = value
            case "--preset":
                guard let named = SamplingPreset(rawValue: value) else { throw UsageError(description: "unknown preset \(value)") }
                preset = named
            case "--layout":
                switch value {
                case "compact": layout = .compact
                case "indented": layout = .indented(2)
                case "free": layout = .free
                default: throw UsageError(description: "--layout takes compact, indented or free")
                }
            case "--free-text":
                guard value == "yes" || value == "no" else { throw UsageError(description: "--free-text takes yes or no") }
                freeText = value == "yes"
            case "--describe-schema":
                guard value == "yes" || value == "no" else { throw UsageError(description: "--describe-schema takes yes or no") }
                describesSchema = value == "yes"
            case "--fast-forward":
                guard value == "yes" || value == "no" else { throw UsageError(description: "--fast-forward takes yes or no") }
                fastForwards = value == "yes"
            case "--threads":
                guard let number = Int(value), number > 0 else { throw UsageError(description: "--threads needs a positive integer") }
                threads = number
            case "--seeds", "--max-tokens":
                guard let number = Int(value), number >= 0 else { throw UsageError(description: "\(argument) needs a whole number") }
                if argument == "--seeds" { seeds = number } else { maximumTokens = number }
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
    }

    func run() async throws {
        let cases = try String(contentsOfFile: promptsPath, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(Case.self, from: Data($0.utf8))
        }
        let model = modelPath.map { SystemLanguageModel(modelPath: $0, threadCount: threads ?? SystemLanguageModel.defaultThreadCount) } ?? .default
        try await model.load { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        guard FileManager.default.createFile(atPath: outputPath, contents: nil), let output = FileHandle(forWritingAtPath: outputPath) else {
            throw UsageError(description: "cannot write \(outputPath)")
        }
        defer { try? output.close() }
        let samplings: [(name: String, mode: GenerationOptions.SamplingMode?)] =
            [("greedy", .greedy)] + (0..<UInt64(seeds)).map { ("seed \($0)", .random(probabilityThreshold: 0.9, seed: $0)) }
        var failures = 0
        var lastSession: (instructions: String?, session: LanguageModelSession, start: Transcript)?
        for (index, item) in cases.enumerated() {
            // A case with neither a schema nor a schema of its own is asked for text.
            let schemaText = try item.schemaText ?? item.schema.map { try String(contentsOfFile: "\(schemasFolder)/\($0).json", encoding: .utf8) }
            let schema = try schemaText.map { try GenerationSchema(jsonSchema: $0) }
            // What the model reads: the prompt with the schema described, in the chat template.
            let prompt = Transcript.Prompt(
                segments: [.text(Transcript.TextSegment(content: item.prompt))],
                responseFormat: describesSchema ? schema.map { Transcript.ResponseFormat(schema: $0) } : nil)
            let messages = ConversationRenderer.messages(of: Transcript(entries: [.prompt(prompt)])).map {
                ["role": $0.role.rawValue, "content": $0.content]
            }
            // Free text from the same messages: the system message (the schema described) as
            // instructions, the request as the prompt.
            let instructions = freeText && schema != nil ? messages.first { $0["role"] == "system" }?["content"] : nil
            for sampling in samplings {
                // The session of the last case when it had the same instructions, its transcript
                // set back: its contexts stay, and cases that begin alike (worked examples)
                // compute only what differs.
                let session: LanguageModelSession
                if let kept = lastSession, kept.instructions == instructions {
                    session = kept.session
                    session.transcript = kept.start
                } else {
                    session = instructions.map { LanguageModelSession(model: model, instructions: $0) } ?? LanguageModelSession(model: model)
                    lastSession = (instructions, session, session.transcript)
                }
                let engine =
                    ["guided"]
                    + [freeText ? "free text" : nil, describesSchema ? nil : "schema not described", preset?.rawValue, layout.map { "layout \($0)" }, fastForwards ? nil : "no fast-forward"]
                    .compactMap { $0 }
                var record: [String: Any] = ["engine": engine.joined(separator: " "), "case": index, "sampling": sampling.name]
                record["schema"] = item.schema ?? (schema == nil ? "text" : "case \(index)")
                if let text = item.schemaText { record["schemaText"] = text }
                do {
                    // Default sampling: nucleus 0.9 at the default temperature, with the seed fixed.
                    var options = GenerationOptions(sampling: sampling.mode, maximumResponseTokens: maximumTokens)
                    options.samplingPreset = preset
                    options.jsonLayout = layout
                    options.fastForwardsForcedText = fastForwards
                    if instructions != nil {
                        let text = try await session.respond(to: item.prompt, options: options).content
                        record["text"] = text
                        record["output"] = Self.json(in: text)
                    } else if let schema {
                        record["output"] = try await session.respond(
                            to: item.prompt, schema: schema, includeSchemaInPrompt: describesSchema, options: options
                        ).content.jsonString
                    } else {
                        record["output"] = try await session.respond(to: item.prompt, options: options).content
                    }
                } catch {
                    record["error"] = "\(error)"
                    failures += 1
                }
                if let statistics = session.statistics {
                    record["tokens"] = statistics.responseTokens
                    record["forced"] = statistics.forcedTokens
                    record["responseSeconds"] = statistics.responseSeconds
                    record["seconds"] = statistics.promptSeconds + statistics.responseSeconds
                }
                record["messages"] = messages
                output.write(try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) + Data("\n".utf8))
            }
            FileHandle.standardError.write(Data("\(index + 1)/\(cases.count) \(item.schema ?? "")\n".utf8))
        }
        print("\(cases.count * samplings.count) answers written to \(outputPath), \(failures) failed")
    }

    /// The JSON value a free-text answer holds: from its first `{` to its last `}` (a code
    /// fence's marks left out), or the whole text.
    static func json(in text: String) -> String {
        guard let start = text.firstIndex(of: "{"), let end = text.lastIndex(of: "}"), start < end else { return text }
        return String(text[start...end])
    }
}
