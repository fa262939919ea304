import Foundation
import GuidedGeneration

/// `guided-bench generate`: the decode loop on the real model, for each schema of `schemas/`,
/// on the same prompt with the schema (constrained, forced text fast-forwarded; the schema is
/// not described in the prompt, so that both runs read the same tokens) and without it (free
/// text of the same length, the peer), greedy: response tokens per second of each, their ratio, the share
/// of tokens that were forced, and the time to the first snapshot.
struct GenerateBenchmark {
    var modelPath: String?
    var schemasFolder = "schemas"
    /// The budget of each answer: the greedy itinerary takes 908 tokens with the `avx512` kernels
    /// (721 with `avx2`).
    var maximumTokens = 1_200

    static let prompts = [
        "bedtime-story": "Tell a bedtime story about a brave lion.",
        "cat-profile": "Describe a shelter cat that needs a home.",
        "comment-thread": "Write a comment about a new phone, with one reply.",
        "contacts-tool-arguments": "Find the phone numbers of people called Smith.",
        "corrected-sentence": "Correct this sentence: 'she go to school every days'.",
        "itinerary": "Plan a three-day trip to Kyoto.",
        "recipe": "Give me a recipe for pancakes.",
        "trip-ideas": "Suggest trips for a family who loves beaches.",
        "workout-plan": "Make a workout plan for a beginner runner.",
    ]

    init(arguments: [String]) throws {
        try forEachOption(in: arguments) { argument, value in
            switch argument {
            case "--model": modelPath = value
            case "--schemas": schemasFolder = value
            case "--max-tokens":
                guard let number = Int(value), number > 0 else { throw UsageError(description: "--max-tokens needs a positive integer") }
                maximumTokens = number
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
    }

    func run() async throws {
        let model = modelPath.map { SystemLanguageModel(modelPath: $0) } ?? .default
        try await model.load { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
        print("schema                    constrained  free text  ratio  forced  first snapshot   tokens  (tokens/s, greedy)")
        var totals = (constrainedTokens: 0, constrainedSeconds: 0.0, textTokens: 0, textSeconds: 0.0, forced: 0)
        var firstSnapshots: [Double] = []
        for (name, prompt) in Self.prompts.sorted(by: { $0.key < $1.key }) {
            let text = try String(contentsOfFile: "\(schemasFolder)/\(name).json", encoding: .utf8)
            let schema = try GenerationSchema(jsonSchema: text)
            let constrainedSession = LanguageModelSession(model: model)
            do {
                // The schema is enforced but not described, so that both runs read the same prompt.
                _ = try await constrainedSession.respond(
                    to: prompt, schema: schema, includeSchemaInPrompt: false,
                    options: GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumTokens))
            } catch {
                print(name.padding(toLength: 26, withPad: " ", startingAt: 0) + "failed: \(error)")
                continue
            }
            guard let constrained = constrainedSession.statistics else { continue }
            let textSession = LanguageModelSession(model: model)
            _ = try await textSession.respond(
                to: prompt, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: constrained.responseTokens))
            guard let free = textSession.statistics else { continue }
            // Free text may end sooner; then it runs at shorter contexts, and is left out of the
            // totals, which compare the same work.
            let sameLength = free.responseTokens == constrained.responseTokens
            if sameLength {
                totals.constrainedTokens += constrained.responseTokens
                totals.constrainedSeconds += constrained.responseSeconds
                totals.textTokens += free.responseTokens
                totals.textSeconds += free.responseSeconds
                totals.forced += constrained.forcedTokens
            }
            firstSnapshots.append(constrained.firstSnapshotSeconds ?? 0)
            print(
                name.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + String(
                        format: "%11.1f  %9.1f  %5.2f  %5.0f%%  %12.2f s  %7@", constrained.responseTokensPerSecond, free.responseTokensPerSecond,
                        constrained.responseTokensPerSecond / max(free.responseTokensPerSecond, 0.001),
                        100 * Double(constrained.forcedTokens) / Double(max(constrained.responseTokens, 1)), constrained.firstSnapshotSeconds ?? 0,
                        sameLength ? "\(constrained.responseTokens)" : "\(constrained.responseTokens)/\(free.responseTokens)"))
        }
        let constrainedRate = Double(totals.constrainedTokens) / max(totals.constrainedSeconds, 0.001)
        let textRate = Double(totals.textTokens) / max(totals.textSeconds, 0.001)
        firstSnapshots.sort()
        print(
            "all of the same length".padding(toLength: 26, withPad: " ", startingAt: 0)
                + String(
                    format: "%11.1f  %9.1f  %5.2f  %5.0f%%  %12.2f s (median)", constrainedRate, textRate, constrainedRate / max(textRate, 0.001),
                    100 * Double(totals.forced) / Double(max(totals.constrainedTokens, 1)), firstSnapshots.isEmpty ? 0 : firstSnapshots[firstSnapshots.count / 2]))
    }
}
