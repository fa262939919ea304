import Foundation
import LlamaInference

/// `guided-bench logits --model PATH --text TEXT`: the tokens of TEXT and the 20 largest logits
/// after them, as one JSON object, for comparing with another implementation.
struct LogitsCommand {
    var modelPath = ""
    var text = ""
    var threads = ProcessInfo.processInfo.activeProcessorCount

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--model": modelPath = remaining.popFirst() ?? ""
            case "--text": text = remaining.popFirst() ?? ""
            case "--threads": threads = remaining.popFirst().flatMap(Int.init) ?? threads
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
        guard !modelPath.isEmpty, !text.isEmpty else { throw UsageError(description: "logits needs --model PATH --text TEXT") }
    }

    func run() throws {
        let file = try GGUFFile(path: modelPath)
        let tokenizer = try BPETokenizer(file: file)
        let model = try LlamaModel(file: file, threadCount: threads)
        let session = InferenceSession(model: model, contextLength: 512)
        let tokens = tokenizer.encode(text)
        try session.evaluate(tokens)
        let top = session.logits.indices.sorted { session.logits[$0] > session.logits[$1] }.prefix(20)
        let pairs = top.map { "[\($0), \(session.logits[$0])]" }.joined(separator: ", ")
        print("{\"tokens\": \(tokens), \"top\": [\(pairs)]}")
    }
}
