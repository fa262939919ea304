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
        let model = modelPath.map { SystemLanguageModel(modelPath: $0) } ?? .default
        try await model.load { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        guard FileManager.default.createFile(atPath: outputPath, contents: nil), let output = FileHandle(forWritingAtPath: outputPath) else {
            throw UsageError(description: "cannot write \(outputPath)")
        }
        defer { try? output.close() }
        let samplings: [(name: String, mode: GenerationOptions.SamplingMode?)] =
            [("greedy", .greedy)] + (0..<UInt64(seeds)).map { ("seed \($0)", .random(probabilityThreshold: 0.9, seed: $0)) }
        var failures = 0
        for (index, item) in cases.enumerated() {
            let schemaText = try item.schemaText ?? String(contentsOfFile: "\(schemasFolder)/\(item.schema ?? "").json", encoding: .utf8)
            let schema = try GenerationSchema(jsonSchema: schemaText)
            // What the model reads: the prompt with the schema described, in the chat template.
            let prompt = Transcript.Prompt(
                segments: [.text(Transcript.TextSegment(content: item.prompt))], responseFormat: Transcript.ResponseFormat(schema: schema))
            let messages = ConversationRenderer.messages(of: Transcript(entries: [.prompt(prompt)])).map {
                ["role": $0.role.rawValue, "content": $0.content]
            }
            for sampling in samplings {
                let session = LanguageModelSession(model: model)
                var record: [String: Any] = ["engine": preset.map { "guided \($0.rawValue)" } ?? "guided", "case": index, "sampling": sampling.name]
                record["schema"] = item.schema ?? "case \(index)"
                if let text = item.schemaText { record["schemaText"] = text }
                do {
                    // Default sampling: nucleus 0.9 at the default temperature, with the seed fixed.
                    var options = GenerationOptions(sampling: sampling.mode, maximumResponseTokens: maximumTokens)
                    options.samplingPreset = preset
                    let response = try await session.respond(to: item.prompt, schema: schema, options: options)
                    record["output"] = response.content.jsonString
                } catch {
                    record["error"] = "\(error)"
                    failures += 1
                }
                if let statistics = session.statistics {
                    record["tokens"] = statistics.responseTokens
                    record["seconds"] = statistics.promptSeconds + statistics.responseSeconds
                }
                record["messages"] = messages
                output.write(try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) + Data("\n".utf8))
            }
            FileHandle.standardError.write(Data("\(index + 1)/\(cases.count) \(item.schema ?? "")\n".utf8))
        }
        print("\(cases.count * samplings.count) answers written to \(outputPath), \(failures) failed")
    }
}
