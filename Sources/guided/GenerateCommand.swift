import Foundation
import GuidedGeneration
import PartialJSON

/// `guided generate --schema FILE ... PROMPT` and `guided respond ... PROMPT`: answers a prompt on
/// the model, as a value of the schema printed as compact JSON, or as text; `guided generate`
/// with `--regex`, `--choice`, `--grammar` or `--lark` writes text that follows that grammar.
struct GenerateCommand {
    /// The schema file; `nil` for a text answer (`respond`, or a text grammar).
    var schemaPath: String?
    /// The grammar of a text answer (`--regex`, `--choice`, `--grammar`, `--lark`).
    var textGrammar: TextGrammar?
    var prompt: String
    var instructions: String?
    /// A GGUF file, or with ``endpoint`` the name of the served model.
    var modelPath: String?
    /// A built-in chat template by name, for a file without one or whose own cannot be run.
    var chatTemplate: String?
    /// The API root of an OpenAI-compatible server to run on instead of a local model.
    var endpoint: URL?
    var options = GenerationOptions()
    var stream = false
    var showsStatistics = false
    /// Whether keywords that cannot be enforced while generating are checked on the final value
    /// instead of refused.
    var isLenient = false

    init(arguments: [String], needsSchema: Bool) throws(CommandError) {
        var prompt: String?
        var seed: UInt64?
        var mode: String?
        var remaining = arguments[...]
        func value(_ option: String) throws(CommandError) -> String {
            guard let value = remaining.popFirst() else { throw .usage("\(option) needs a value") }
            return value
        }
        func number<T: LosslessStringConvertible>(_ option: String, _ type: T.Type) throws(CommandError) -> T {
            let text = try value(option)
            guard let number = T(text) else { throw .usage("\(option) needs a number, not '\(text)'") }
            return number
        }
        var k: Int?
        var p: Double?
        var choices: [String] = []
        var grammarOptions: Set<String> = []
        while let argument = remaining.popFirst() {
            switch argument {
            case "--schema" where needsSchema: schemaPath = try value(argument)
            case "--regex" where needsSchema:
                textGrammar = .regex(try value(argument))
                grammarOptions.insert(argument)
            case "--choice" where needsSchema:
                choices.append(try value(argument))
                textGrammar = .choices(choices)
                grammarOptions.insert(argument)
            case "--grammar" where needsSchema, "--lark" where needsSchema:
                // A Lark grammar by its flag or its file's extension; any other file is GBNF.
                let path = try value(argument)
                let text = try Self.read(path)
                textGrammar = argument == "--lark" || path.lowercased().hasSuffix(".lark") ? .lark(text) : .gbnf(text)
                grammarOptions.insert(argument)
            case "--instructions": instructions = try value(argument)
            case "--model": modelPath = try value(argument)
            case "--chat-template": chatTemplate = try value(argument)
            case "--endpoint":
                let text = try value(argument)
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                    throw .usage("--endpoint needs an http or https URL, not '\(text)'")
                }
                endpoint = url
            case "--greedy", "--top-k", "--top-p":
                // Top-k and top-p go together, as in llama.cpp; greedy goes with neither.
                guard mode == nil || (mode != "--greedy" && argument != "--greedy" && mode != argument) else {
                    throw .usage("--greedy goes with neither --top-k nor --top-p, and each is given once")
                }
                if mode != "--top-k" { mode = argument }
                if argument == "--top-k" { k = try number(argument, Int.self) }
                if argument == "--top-p" { p = try number(argument, Double.self) }
            case "--seed": seed = try number(argument, UInt64.self)
            case "--temperature": options.temperature = try number(argument, Double.self)
            case "--max-tokens": options.maximumResponseTokens = try number(argument, Int.self)
            case "--stream": stream = true
            case "--stats": showsStatistics = true
            case "--lenient" where needsSchema: isLenient = true
            case _ where try SamplingArguments.read(argument, into: &options, value: { () throws(CommandError) in try value(argument) }):
                break
            case _ where argument.hasPrefix("--"):
                throw .usage("unknown option '\(argument)'")
            default:
                guard prompt == nil else { throw .usage("give the prompt as one argument (quote it)") }
                prompt = argument
            }
        }
        switch mode {
        case "--greedy"?: options.sampling = .greedy
        case "--top-k"?:
            options.sampling = .random(top: k ?? 40, seed: seed)
            // Top-p after top-k, as a stage of the chain.
            if let p {
                var settings = options.samplingSettings ?? SamplingSettings()
                settings.topP = p
                options.samplingSettings = settings
            }
        case "--top-p"?: options.sampling = .random(probabilityThreshold: p ?? 0.9, seed: seed)
        default: if let seed { options.sampling = .random(probabilityThreshold: 0.9, seed: seed) }
        }
        guard let prompt else { throw .usage("missing PROMPT") }
        if needsSchema, (schemaPath == nil ? 0 : 1) + grammarOptions.count != 1 {
            throw .usage("generate needs one of --schema FILE, --regex R, --choice A (repeated), --grammar FILE (.gbnf or .lark), --lark FILE")
        }
        if let textGrammar {
            if isLenient { throw .usage("--lenient goes with --schema") }
            do {
                _ = try textGrammar.compiled()
            } catch {
                throw .unsupportedSchema("the grammar cannot be enforced: \(error)")
            }
            options.textGrammar = textGrammar
        }
        if endpoint != nil, modelPath == nil { throw .usage("--endpoint needs --model NAME, the served model") }
        self.prompt = prompt
    }

    func run() async throws(CommandError) {
        let schema = try schemaPath.map { path throws(CommandError) in try Self.readSchema(path, lenient: isLenient) }
        let session: LanguageModelSession
        if let endpoint, let name = modelPath {
            session = LanguageModelSession(model: OpenAICompatibleLanguageModel(baseURL: endpoint, model: name), instructions: instructions)
        } else {
            let model = modelPath.map { SystemLanguageModel(modelPath: $0, chatTemplate: chatTemplate) } ?? .default
            do {
                try await model.load { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            } catch {
                throw .modelUnavailable((error as? LanguageModelSession.GenerationError).map(Self.message) ?? "\(error)")
            }
            session = LanguageModelSession(model: model, instructions: instructions)
        }
        do {
            if let schema {
                if stream {
                    for try await snapshot in session.streamResponse(to: prompt, schema: schema, options: options) {
                        print(snapshot.rawContent.jsonString)
                    }
                } else if ProgressLine.isAvailable {
                    // On a terminal the value is shown as it grows, then replaced by the same
                    // line that a pipe gets.
                    let progress = ProgressLine()
                    var last: GeneratedContent?
                    for try await snapshot in session.streamResponse(to: prompt, schema: schema, options: options) {
                        progress.show(snapshot.rawContent.jsonString)
                        last = snapshot.rawContent
                    }
                    progress.clear()
                    guard let last else { throw CommandError.generationFailed("the response ended without content") }
                    print(last.jsonString)
                } else {
                    print(try await session.respond(to: prompt, schema: schema, options: options).rawContent.jsonString)
                }
            } else if stream || ProgressLine.isAvailable {
                var written = ""
                for try await snapshot in session.streamResponse(to: prompt, options: options) {
                    FileHandle.standardOutput.write(Data(snapshot.content.utf8.dropFirst(written.utf8.count)))
                    written = snapshot.content
                }
                print()
            } else {
                print(try await session.respond(to: prompt, options: options).content)
            }
        } catch let error as LanguageModelSession.GenerationError {
            switch error {
            case .unsupportedGuide: throw .unsupportedSchema(Self.message(error))
            case .assetsUnavailable: throw .modelUnavailable(Self.message(error))
            default: throw .generationFailed(Self.message(error))
            }
        } catch {
            throw .generationFailed("\(error)")
        }
        if showsStatistics, let statistics = session.statistics {
            let line = String(
                format: "prompt %d tokens (%d cached) in %.2f s; response %d tokens (%d forced) in %.2f s, %.1f tokens/s; first snapshot after %.2f s",
                statistics.promptTokens, statistics.cachedPromptTokens, statistics.promptSeconds, statistics.responseTokens,
                statistics.forcedTokens, statistics.responseSeconds, statistics.responseTokensPerSecond, statistics.firstSnapshotSeconds ?? 0)
                + (statistics.isTruncated ? "; cut short at the token limit or the end of the context" : "")
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// The text of the file at `path`.
    private static func read(_ path: String) throws(CommandError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable("cannot read \(path): \(error.localizedDescription)")
        }
    }

    private static func readSchema(_ path: String, lenient: Bool) throws(CommandError) -> GenerationSchema {
        let text = try read(path)
        do {
            return try GenerationSchema(jsonSchema: try JSONValue(parsing: text), lenient: lenient)
        } catch {
            throw .unsupportedSchema("\(path): \(error)")
        }
    }

    private static func message(_ error: LanguageModelSession.GenerationError) -> String {
        [error.errorDescription, error.failureReason].compactMap { $0 }.joined(separator: " ")
    }
}
