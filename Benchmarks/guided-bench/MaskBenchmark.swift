import ConstrainedDecoding
import Foundation
import PartialJSON

/// `guided-bench masks`: for each case, the compile time of its schema or grammar (compiled once
/// for consecutive cases of the same one, unless `--compile-each`; see ``MaskCaseGrammar``), then
/// before each token of its instance or sample text the time of a full token mask; checks the
/// token is allowed, advances, and checks that end-of-text is allowed at the end. Writes one JSON
/// line per case and prints percentiles. The compile time includes
/// ``CompiledGrammar/precomputeMasks(for:budget:)`` over the vocabulary (also written apart, as
/// `precompute_ms`) unless `--lazy-masks`.
struct MaskBenchmark {
    var vocabularyPath = ""
    var casesPath = ""
    var outputPath = ""
    var options = CompileOptions()
    /// Compile every case's schema afresh, even when the previous case had the same one.
    var compilesEach = false
    /// Leave every mask to its first use instead of precomputing the slow ones.
    var lazyMasks = false

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--vocab": vocabularyPath = remaining.popFirst() ?? ""
            case "--cases": casesPath = remaining.popFirst() ?? ""
            case "--out": outputPath = remaining.popFirst() ?? ""
            case "--whitespace":
                switch remaining.popFirst() {
                case "compact": options.whitespace = .compact
                case "flexible": options.whitespace = .flexible(maximum: 20)
                default: throw UsageError(description: "--whitespace takes compact or flexible")
                }
            case "--extra-properties":
                switch remaining.popFirst() {
                case "forbid": options.extraProperties = .forbid
                case "allow": options.extraProperties = .allow
                default: throw UsageError(description: "--extra-properties takes forbid or allow")
                }
            case "--lenient": options.isLenient = true
            case "--compile-each": compilesEach = true
            case "--lazy-masks": lazyMasks = true
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
        guard !vocabularyPath.isEmpty, !casesPath.isEmpty, !outputPath.isEmpty else {
            throw UsageError(description: "masks needs --vocab VOCAB.json --cases CASES.jsonl --out OUT.jsonl")
        }
    }

    static func loadVocabulary(_ path: String) throws -> Vocabulary {
        let value = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let end = value["eos_token_id"]?.numberValue.flatMap({ try? $0.intValue() }),
            let hexTokens = value["tokens"]?.arrayValue
        else { throw UsageError(description: "\(path): expected {\"eos_token_id\", \"tokens\", \"special\"}") }
        let tokens = hexTokens.map { token -> [UInt8] in
            let hex = Array((token.stringValue ?? "").utf8)
            return stride(from: 0, to: hex.count - 1, by: 2).compactMap { UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16) }
        }
        let special = Set((value["special"]?.arrayValue ?? []).compactMap { $0.numberValue.flatMap { try? $0.intValue() }.map(Int32.init) })
        return Vocabulary(tokens: tokens, specialTokens: special, endOfText: Int32(end))
    }

    func run() throws {
        let vocabulary = try Self.loadVocabulary(vocabularyPath)
        let lines = try String(contentsOfFile: casesPath, encoding: .utf8).split(separator: "\n")
        var output = ""
        var compileTimes: [Double] = []
        var precomputeTimes: [Double] = []
        var maskTimes: [Double] = []
        var accepted = 0
        var refused = 0
        var mask = TokenBitset(capacity: vocabulary.count)
        let clock = ContinuousClock()
        var last: (grammar: MaskCaseGrammar, result: Result<CompiledGrammar, any Error>?, milliseconds: Double, precompute: Double, precomputed: MaskPrecomputation?)?
        for line in lines where !line.isEmpty {
            let testCase = try JSONValue(parsing: String(line))
            let id = testCase["id"]?.stringValue ?? "?"
            let source = try MaskCaseGrammar(case: testCase)
            let tokens = (testCase["tokens"]?.arrayValue ?? []).compactMap { $0.numberValue.flatMap { try? $0.intValue() }.map(Int32.init) }
            var record = JSONObject()
            record.append(key: "id", value: .string(id))
            // The instances of one schema (or the samples of one grammar) share its compile, as with
            // the peers' --reuse-compiled: each gets a fresh matcher, which starts with what the
            // grammar's earlier ones built.
            if compilesEach || last?.grammar != source {
                var result: Result<CompiledGrammar, any Error>?
                let compileTime = clock.measure { result = source.compile(options: options) }
                var precomputeTime = Duration.zero
                var precomputed: MaskPrecomputation?
                if !lazyMasks, case .success(let grammar)? = result {
                    precomputeTime = clock.measure { precomputed = grammar.precomputeMasks(for: vocabulary) }
                }
                last = (source, result, (compileTime + precomputeTime).milliseconds, precomputeTime.milliseconds, precomputed)
            }
            let result = last?.result
            let compileMilliseconds = last?.milliseconds ?? 0
            record.append(key: "compile_ms", value: .number(JSONNumber(compileMilliseconds) ?? 0))
            record.append(key: "precompute_ms", value: .number(JSONNumber(last?.precompute ?? 0) ?? 0))
            if let precomputed = last?.precomputed {
                record.append(
                    key: "precomputed",
                    value: .object([
                        "states": .number(JSONNumber(precomputed.statesVisited)), "masks": .number(JSONNumber(precomputed.masksKept)),
                        "bytes": .number(JSONNumber(precomputed.maskBytes)), "complete": .bool(precomputed.isComplete),
                    ]))
            }
            guard case .success(let grammar)? = result else {
                refused += 1
                let message = if case .failure(let error)? = result { String(describing: error) } else { "" }
                record.append(key: "accepted", value: .bool(false))
                record.append(key: "reject_at", value: .null)
                record.append(key: "mask_us", value: .array([]))
                record.append(key: "error", value: .string(message))
                output += JSONValue.object(record).jsonString + "\n"
                continue
            }
            compileTimes.append(compileMilliseconds)
            precomputeTimes.append(last?.precompute ?? 0)
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
            var times: [JSONValue] = []
            var rejectAt: Int?
            for (index, token) in tokens.enumerated() {
                let elapsed = clock.measure { matcher.allowedTokens(into: &mask) }
                times.append(.number(JSONNumber(elapsed.microseconds) ?? 0))
                maskTimes.append(elapsed.microseconds)
                guard mask.contains(token), matcher.advance(token: token) else {
                    rejectAt = index
                    break
                }
            }
            if rejectAt == nil {
                let elapsed = clock.measure { matcher.allowedTokens(into: &mask) }
                times.append(.number(JSONNumber(elapsed.microseconds) ?? 0))
                maskTimes.append(elapsed.microseconds)
                if !mask.contains(vocabulary.endOfText) { rejectAt = tokens.count }
            }
            // Lenient: what the grammar dropped is checked on the whole value, as a session does.
            if rejectAt == nil, !grammar.droppedKeywords.isEmpty, let schema = source.schema, let instance = testCase["instance"]?.stringValue,
                let violation = (try? SchemaValidator(jsonSchema: schema, options: options))?.violation(in: instance)
            {
                rejectAt = tokens.count
                record.append(key: "violation", value: .string(violation.description))
            }
            if rejectAt == nil { accepted += 1 }
            record.append(key: "accepted", value: .bool(rejectAt == nil))
            record.append(key: "reject_at", value: rejectAt.map { .number(JSONNumber($0)) } ?? .null)
            record.append(key: "mask_us", value: .array(times))
            output += JSONValue.object(record).jsonString + "\n"
        }
        try output.write(toFile: outputPath, atomically: true, encoding: .utf8)
        print("cases: \(lines.count), compiled: \(lines.count - refused), accepted: \(accepted)")
        print("compile ms   p50 \(Self.format(Self.percentile(compileTimes, 50)))  p99 \(Self.format(Self.percentile(compileTimes, 99)))  max \(Self.format(compileTimes.max() ?? 0))")
        print(
            "  of which mask precomputation p50 \(Self.format(Self.percentile(precomputeTimes, 50)))  p99 \(Self.format(Self.percentile(precomputeTimes, 99)))"
                + "  max \(Self.format(precomputeTimes.max() ?? 0))")
        print(
            "mask µs      p50 \(Self.format(Self.percentile(maskTimes, 50)))  p99 \(Self.format(Self.percentile(maskTimes, 99)))"
                + "  p99.9 \(Self.format(Self.percentile(maskTimes, 99.9)))  max \(Self.format(maskTimes.max() ?? 0))")
    }

    static func percentile(_ values: [Double], _ percent: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((percent / 100 * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func format(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}

extension Duration {
    var milliseconds: Double { Double(components.seconds) * 1e3 + Double(components.attoseconds) * 1e-15 }
    var microseconds: Double { Double(components.seconds) * 1e6 + Double(components.attoseconds) * 1e-12 }
}
