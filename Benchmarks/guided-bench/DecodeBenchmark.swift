import Foundation
import LlamaInference
import ModelFetching

/// `guided-bench decode --model PATH --threads N --prompt-tokens 128 --generate 128`: prefill
/// and decode speed in tokens per second (median of several runs) and peak memory.
struct DecodeBenchmark {
    var modelPath = ""
    var threads = ProcessInfo.processInfo.activeProcessorCount
    var promptTokens = 128
    var generate = 128
    var runs = 3

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--model": modelPath = remaining.popFirst() ?? ""
            case "--threads": threads = remaining.popFirst().flatMap(Int.init) ?? threads
            case "--prompt-tokens": promptTokens = remaining.popFirst().flatMap(Int.init) ?? promptTokens
            case "--generate": generate = remaining.popFirst().flatMap(Int.init) ?? generate
            case "--runs": runs = remaining.popFirst().flatMap(Int.init) ?? runs
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
        if modelPath.isEmpty { modelPath = ModelStore.defaultModelPath }
    }

    func run() throws {
        let file = try GGUFFile(path: modelPath)
        let model = try LlamaModel(file: file, threadCount: threads)
        let vocabulary = model.configuration.vocabularySize
        // A fixed, ordinary prompt: token ids spread over the vocabulary, past the special ones.
        let prompt = (0..<promptTokens).map { Int32(100 + ($0 * 7919) % (vocabulary - 200)) }
        var prefillRates: [Double] = []
        var decodeRates: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let session = InferenceSession(model: model, contextLength: promptTokens + generate + 1)
            let prefill = try clock.measure { try session.evaluate(prompt) }
            prefillRates.append(Double(promptTokens) / prefill.seconds)
            let decode = try clock.measure {
                for _ in 0..<generate {
                    let next = Int32(session.logits.indices.max { session.logits[$0] < session.logits[$1] } ?? 0)
                    try session.evaluate([next])
                }
            }
            decodeRates.append(Double(generate) / decode.seconds)
        }
        prefillRates.sort()
        decodeRates.sort()
        print("model: \(modelPath)")
        print("kernels: \(model.kernels)")
        print("threads: \(threads), prompt: \(promptTokens) tokens, generated: \(generate) tokens, runs: \(runs)")
        print(String(format: "prefill: %.1f tokens/s (median)", prefillRates[prefillRates.count / 2]))
        print(String(format: "decode:  %.1f tokens/s (median)", decodeRates[decodeRates.count / 2]))
        print("peak memory: \(Self.peakMemory())")
    }

    /// The process's peak resident memory, from /proc.
    static func peakMemory() -> String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("VmHWM") }.map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) } ?? "unknown"
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
