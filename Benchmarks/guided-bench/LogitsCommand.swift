import Foundation
import LlamaInference

/// `guided-bench logits --model PATH (--text TEXT | --tokens ID,ID,...)`: the tokens of TEXT (or
/// the tokens given) and the 20 largest logits after them, as one JSON object, for comparing with
/// another implementation.
struct LogitsCommand {
    var modelPath = ""
    var text = ""
    var tokens: [Int32] = []
    var greedyCount = 0
    var threads = ProcessInfo.processInfo.activeProcessorCount

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--model": modelPath = remaining.popFirst() ?? ""
            case "--text": text = remaining.popFirst() ?? ""
            case "--tokens": tokens = (remaining.popFirst() ?? "").split(separator: ",").compactMap { Int32($0) }
            case "--greedy": greedyCount = remaining.popFirst().flatMap(Int.init) ?? 0
            case "--threads": threads = remaining.popFirst().flatMap(Int.init) ?? threads
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
        guard !modelPath.isEmpty, !text.isEmpty || !tokens.isEmpty else {
            throw UsageError(description: "logits needs --model PATH and --text TEXT or --tokens ID,ID,...")
        }
    }

    func run() throws {
        let file = try GGUFFile(path: modelPath)
        let tokenizer = try makeTokenizer(file: file)
        let model = try LlamaModel(file: file, threadCount: threads)
        let session = InferenceSession(model: model, contextLength: 512)
        let tokens = self.tokens.isEmpty ? tokenizer.encode(text) : self.tokens
        try session.evaluate(tokens)
        let top = session.logits.indices.sorted { session.logits[$0] > session.logits[$1] }.prefix(20)
        let pairs = top.map { "[\($0), \(session.logits[$0])]" }.joined(separator: ", ")
        // The greedy continuation, when asked.
        var continuation: [Int32] = []
        for _ in 0..<greedyCount {
            guard let best = session.logits.indices.max(by: { session.logits[$0] < session.logits[$1] }) else { break }
            continuation.append(Int32(best))
            try session.evaluate([Int32(best)])
        }
        print("{\"tokens\": \(tokens), \"top\": [\(pairs)], \"greedy\": \(continuation)}")
    }
}
