import Foundation
import Testing

@testable import LlamaInference

/// llama.cpp's greedy continuation of a prompt, as llama-server reported it (`n_probs`): each
/// step's token with llama.cpp's 10 most likely tokens and their log probabilities.
struct LlamaCppContinuation: Decodable {
    struct Step: Decodable {
        let token: Int32
        /// llama.cpp's 10 most likely tokens, with their log probabilities.
        let top: [[Double]]
    }

    /// The prompt's text, where the fixture has it.
    let text: String?
    let tokens: [Int32]
    let steps: [Step]

    /// Runs the prompt and llama.cpp's continuation through `model`, a token at a time: at every
    /// step, llama.cpp's log probabilities within `tolerance` of the model's, and the model's
    /// greedy token llama.cpp's, unless llama.cpp's best two are within `tieMargin` there. Each
    /// step reads llama.cpp's token, so the steps after a tie are compared too. Returns the
    /// largest difference, how many greedy tokens agreed before the first tie the two part at
    /// (the model's own greedy continuation is llama.cpp's that far), and at how many steps they
    /// parted. The session's context is `contextLength` positions.
    func compare(with model: LlamaModel, contextLength: Int = 64, tolerance: Double, tieMargin: Double, label: String) throws -> (
        largest: Double, agreeing: Int, parted: Int
    ) {
        let session = InferenceSession(model: model, contextLength: contextLength)
        try session.evaluate(tokens)
        var largest = 0.0
        var agreeing = 0
        var parted = 0
        for (index, step) in steps.enumerated() {
            let logits = session.logits
            let maximum = Double(logits.max() ?? 0)
            let logSum = maximum + log(logits.reduce(0.0) { $0 + exp(Double($1) - maximum) })
            for entry in step.top {
                let difference = abs(Double(logits[Int(entry[0])]) - logSum - entry[1])
                largest = max(largest, difference)
                #expect(difference <= tolerance, "\(label), step \(index): token \(Int(entry[0])) off by \(difference)")
            }
            let chosen = try #require(logits.indices.max { logits[$0] < logits[$1] })
            if Int32(chosen) != step.token {
                // Parting is allowed only where llama.cpp itself hesitates.
                let theirs = try #require(step.top.first)[1]
                let ours = step.top.first { Int($0[0]) == chosen }?[1] ?? -.infinity
                print("\(label), step \(index): parted from llama.cpp, whose two best are \(theirs - ours) apart")
                #expect(theirs - ours <= tieMargin, "\(label), step \(index): \(chosen) instead of \(step.token)")
                parted += 1
            } else if parted == 0 {
                agreeing += 1
            }
            try session.evaluate([step.token])
        }
        return (largest, agreeing, parted)
    }

    /// The continuations of a fixture file.
    static func load(_ name: String) throws -> [LlamaCppContinuation] {
        try JSONDecoder().decode([LlamaCppContinuation].self, from: Data(contentsOf: TestModel.fixtures.appendingPathComponent(name)))
    }
}
