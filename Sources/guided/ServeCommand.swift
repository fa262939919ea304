import Foundation
import GuidedGeneration
import GuidedServer
import LlamaInference
import ModelFetching

/// `guided serve [--model GGUF] [--host H] [--port P] [--api-key KEY] [--name NAME]
/// [--parallel N] [--max-waiting N] [--tool-format json|template]`: the OpenAI-compatible
/// endpoint over a local model, until stopped.
struct ServeCommand {
    var modelPath: String?
    /// A built-in chat template by name, for a file without one or whose own cannot be run.
    var chatTemplate: String?
    var host = "127.0.0.1"
    var port = 8080
    var apiKey = ProcessInfo.processInfo.environment["GUIDED_API_KEY"]
    var name: String?
    var parallel = 4
    var maximumWaiting = 32
    /// How the model writes turns that may call tools; `nil` for its default.
    var toolCallFormat: ToolCallFormat?

    init(arguments: [String]) throws(CommandError) {
        var remaining = arguments[...]
        func value(_ option: String) throws(CommandError) -> String {
            guard let value = remaining.popFirst() else { throw .usage("\(option) needs a value") }
            return value
        }
        func number(_ option: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
            let text = try value(option)
            guard let number = Int(text), range.contains(number) else { throw .usage("\(option) needs a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'") }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--model": modelPath = try value(argument)
            case "--chat-template": chatTemplate = try value(argument)
            case "--host": host = try value(argument)
            case "--port": port = try number(argument, in: 0...65535)
            case "--api-key": apiKey = try value(argument)
            case "--name": name = try value(argument)
            case "--parallel": parallel = try number(argument, in: 1...256)
            case "--max-waiting": maximumWaiting = try number(argument, in: 0...10_000)
            case "--tool-format":
                let text = try value(argument)
                guard let format = ToolCallFormat(rawValue: text) else { throw .usage("--tool-format needs json or template, not '\(text)'") }
                toolCallFormat = format
            default: throw .usage("unknown argument '\(argument)' for serve")
            }
        }
    }

    func run() async throws(CommandError) -> Never {
        // Requests run on threads of their own: few arenas, so that memory comes back after a load.
        limitAllocatorArenas(to: 2)
        let model = modelPath.map { SystemLanguageModel(modelPath: $0, chatTemplate: chatTemplate) } ?? .default
        do {
            try await model.load { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        } catch {
            throw .modelUnavailable("\(error)")
        }
        // A known model's name is served as it is; a file by its name without the extension.
        let served =
            name ?? modelPath.map { path in
                KnownModel.named(path) != nil && !FileManager.default.fileExists(atPath: path)
                    ? path : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            } ?? KnownModel.default.name
        let endpoint = OpenAIEndpoint(model: model, name: served, apiKey: apiKey, parallel: parallel, maximumWaiting: maximumWaiting, toolCallFormat: toolCallFormat)
        let server: HTTPServer
        do {
            server = try HTTPServer(host: host, port: port, handler: endpoint)
        } catch {
            throw .unreadable("serve: \(error)")
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        FileHandle.standardError.write(Data("serving \(served) on http://\(shown):\(server.port)/v1\(apiKey == nil ? "" : " (API key required)")\n".utf8))
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }
}
