import ConstrainedDecoding
import Foundation
import LlamaInference
import PartialJSON

/// `guided-bench forced-runs`: how fast-forward meets a model's own tokenization. Each valid
/// instance of the JSONSchemaBench files, laid out as the grammar writes it, is tokenized
/// whole, as the model would write it after its turn's header (the peer: the tokenizer itself);
/// then the instance is followed token by token through its schema's grammar, the fast-forward
/// asked at each step. A forced run is canonical when its tokens are the next tokens of the
/// whole tokenization; otherwise the model would continue from a boundary it never saw. Prints,
/// with the back-off (the engine) and without it (the forced text tokenized on its own), the
/// share of tokens forced and the share of forced runs that are not canonical.
struct ForcedRunsBenchmark {
    var modelPaths: [String] = []
    var corpus = "../shared/corpora/JSONSchemaBench-dev"
    var whitespace = CompileOptions.Whitespace.indented(2)
    /// The most schemas read from each file.
    var schemasPerFile = Int.max
    /// Whether each non-canonical run of the engine is printed.
    var showsNonCanonical = false

    init(arguments: [String]) throws {
        try forEachOption(in: arguments) { option, value in
            switch option {
            case "--model": modelPaths.append(value)
            case "--corpus": corpus = value
            case "--layout":
                switch value {
                case "indented": whitespace = .indented(2)
                case "compact": whitespace = .compact
                default: throw UsageError(description: "--layout takes indented or compact")
                }
            case "--show-non-canonical": showsNonCanonical = value == "yes"
            case "--schemas-per-file":
                guard let count = Int(value), count > 0 else { throw UsageError(description: "--schemas-per-file needs a positive integer") }
                schemasPerFile = count
            default: throw UsageError(description: "unknown option \(option)")
            }
        }
        guard !modelPaths.isEmpty else { throw UsageError(description: "forced-runs needs --model PATH (one or more)") }
    }

    /// What the runs of one way of forcing came to.
    struct Tally {
        var tokens = 0
        var forcedTokens = 0
        var runs = 0
        var nonCanonicalRuns = 0
        var nonCanonicalTokens = 0

        var line: String {
            let forcedShare = Double(forcedTokens) / Double(max(tokens, 1)) * 100
            let badShare = Double(nonCanonicalRuns) / Double(max(runs, 1)) * 100
            return String(
                format: "%8d tokens  %6.2f%% forced (%d)  %6d runs  %6.2f%% not canonical (%d runs, %d tokens)", tokens, forcedShare,
                forcedTokens, runs, badShare, nonCanonicalRuns, nonCanonicalTokens)
        }
    }

    func run() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".jsonl") }.sorted()
        guard !files.isEmpty else { throw UsageError(description: "no .jsonl files in \(corpus)") }
        for path in modelPaths {
            let tokenizer = try makeTokenizer(file: try GGUFFile(path: path))
            let vocabulary = Vocabulary(
                tokens: tokenizer.tokenBytes, specialTokens: tokenizer.specialTokens.union([tokenizer.endOfText]), endOfText: tokenizer.endOfText)
            let tokenize = { (text: String) in tokenizer.encode(text, parsingSpecialTokens: false) }
            // A turn's header ends with a line break, after which the answer starts.
            let header = tokenize("\n").last
            var backedOff = Tally()
            var alone = Tally()
            var instances = 0
            var outOfLayout = 0
            var refusedSchemas = 0
            for file in files {
                let lines = try String(contentsOfFile: "\(corpus)/\(file)", encoding: .utf8).split(separator: "\n").prefix(schemasPerFile)
                for line in lines {
                    let entry = try JSONValue(parsing: String(line))
                    guard let schema = entry["schema"],
                        let grammar = try? CompiledGrammar(jsonSchema: schema.jsonString, options: CompileOptions(whitespace: whitespace))
                    else {
                        refusedSchemas += 1
                        continue
                    }
                    for test in entry["tests"]?.arrayValue ?? [] where test["valid"]?.boolValue == true {
                        guard let data = test["data"] else { continue }
                        let document = Self.layout(data, whitespace: whitespace)
                        let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
                        guard matcher.accepts(document: Array(document.utf8)) else {
                            outOfLayout += 1
                            continue
                        }
                        var canonical = tokenize("\n" + document)
                        if canonical.first == header { canonical.removeFirst() } else { canonical = tokenize(document) }
                        instances += 1
                        let show = showsNonCanonical ? { (run: [Int32], expected: ArraySlice<Int32>) in
                            let spell = { (tokens: [Int32]) in tokens.map { String(reflecting: String(decoding: vocabulary.tokens[Int($0)], as: UTF8.self)) }.joined(separator: " ") }
                            print("  not canonical: forced \(spell(run)), whole \(spell(Array(expected.prefix(run.count + 1)))) in \(entry["id"]?.stringValue ?? "?")")
                        } : nil
                        Self.follow(canonical, matcher: matcher, start: header, into: &backedOff, show: show) { matcher, previous in
                            matcher.fastForwardTokens(after: previous, tokenize: tokenize)
                        }
                        matcher.reset()
                        Self.follow(canonical, matcher: matcher, start: header, into: &alone) { matcher, _ in
                            Self.forcedAlone(matcher, tokenize: tokenize)
                        }
                    }
                }
            }
            print("\(path): \(instances) instances (\(outOfLayout) not in the layout, \(refusedSchemas) schemas refused)")
            print("  back-off (engine):      \(backedOff.line)")
            print("  forced text on its own: \(alone.line)")
        }
    }

    /// Follows the whole tokenization of a document, asking `forced` for the fast-forward before
    /// each token the model would write.
    static func follow(
        _ canonical: [Int32], matcher: GrammarMatcher, start: Int32?, into tally: inout Tally,
        show: (([Int32], ArraySlice<Int32>) -> Void)? = nil, forced: (GrammarMatcher, Int32?) -> [Int32]
    ) {
        var position = 0
        var previous = start
        tally.tokens += canonical.count
        while position < canonical.count {
            let run = forced(matcher, previous)
            if !run.isEmpty {
                tally.runs += 1
                if canonical[position...].starts(with: run) {
                    tally.forcedTokens += run.count
                    position += run.count
                    previous = run.last
                    continue
                }
                show?(run, canonical[position...])
                tally.nonCanonicalRuns += 1
                tally.nonCanonicalTokens += run.count
                matcher.rollback(run.count)
            }
            guard matcher.advance(token: canonical[position]) else { return }
            previous = canonical[position]
            position += 1
        }
    }

    /// The forced text tokenized on its own and read whole: fast-forward without the back-off.
    static func forcedAlone(_ matcher: GrammarMatcher, tokenize: (String) -> [Int32]) -> [Int32] {
        var bytes = matcher.forcedBytes()
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        guard !bytes.isEmpty else { return [] }
        let tokens = tokenize(String(decoding: bytes, as: UTF8.self))
        for (index, token) in tokens.enumerated() where !matcher.advance(token: token) {
            matcher.rollback(index)
            return []
        }
        return tokens
    }

    /// A value as the grammar lays it out: compact, or indented as ``CompileOptions/Whitespace/indented(_:)`` says.
    static func layout(_ value: JSONValue, whitespace: CompileOptions.Whitespace, depth: Int = 0) -> String {
        guard case .indented(let indent) = whitespace else { return value.jsonString }
        let inner = "\n" + String(repeating: " ", count: indent * min(depth + 1, 9))
        let outer = "\n" + String(repeating: " ", count: indent * min(depth, 9))
        switch value {
        case .array(let elements) where !elements.isEmpty:
            return "[" + elements.map { inner + layout($0, whitespace: whitespace, depth: depth + 1) }.joined(separator: ",") + outer + "]"
        case .object(let object) where !object.members.isEmpty:
            let members = object.members.map { member in
                inner + JSONValue.string(member.key).jsonString + ": " + layout(member.value, whitespace: whitespace, depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + outer + "}"
        default:
            return value.jsonString
        }
    }
}
