@testable import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing
import TestSupport

/// The real-world schemas of JSONSchemaBench-dev (GitHub, Kubernetes, Snowplow, JSON Schema
/// Store, function calls, ...), read from a corpora folder beside the repository: every schema
/// the compiler accepts lets through only values that the whole schema accepts, valid and invalid
/// instances alike, under JSON Schema's own semantics (extra properties allowed).
///
/// The corpus states no license and no package registry carries it, so neither the repository
/// nor the test command can bring it (README, "What the tests leave out"). The three tests run
/// where it is found and wherever `GUIDED_CORPORA` is set; they are skipped, each saying why,
/// only where `GUIDED_CORPORA` is unset and no `shared/corpora` folder lies beside the checkout,
/// as in a clean clone. Where they run, a corpus short of a subset or of the sample's 2,711
/// schemas, a line that is not a schema entry, or a compiled schema the final check cannot read
/// fails them: nothing shrinks them silently.
@Suite(.threadOfItsOwn) struct RealWorldSchemaTests {
    /// The folder named by `GUIDED_CORPORA`, when it is set.
    static let namedFolder = ProcessInfo.processInfo.environment["GUIDED_CORPORA"]
    /// `$GUIDED_CORPORA/JSONSchemaBench-dev`, else `../shared/corpora/JSONSchemaBench-dev` beside the
    /// checkout.
    static let folder = (namedFolder.map { URL(fileURLWithPath: $0) }
        ?? ConformanceTests.testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora"))
        .appendingPathComponent("JSONSchemaBench-dev")
    /// The corpus's files.
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
    /// The corpus's subsets, a file each.
    static let subsets = [
        "BFCL", "Github_easy", "Github_hard", "Github_medium", "Github_trivial", "Github_ultra", "Glaiveai2K", "Handwritten", "JME",
        "JsonSchemaStore", "Kubernetes", "MCPspec", "Snowplow", "Synthesized", "WashingtonPost",
    ]
    /// The schemas of the sample the corpora folder holds (at most 250 a subset); a larger
    /// sample of the same subsets may be used, not a smaller one.
    static let sampleSchemas = 2711
    /// What the corpus is and how to get it.
    static let howToGet = """
        JSONSchemaBench-dev is a seeded sample (at most 250 schemas a subset, \(sampleSchemas) in all) of the real-world \
        schemas of github.com/guidance-ai/jsonschemabench, maskbench/data at ba103c73756198dd9b149ddc7db7867da7a077f6, \
        which states no license and is on no package registry: put its files (\(subsets.map { "\($0).jsonl" }.joined(separator: ", ")), \
        one schema a line as {"id", "schema", "tests": [{"valid", "data"}]}) in a folder JSONSchemaBench-dev and set \
        GUIDED_CORPORA to the folder that holds it (README, "What the tests leave out")
        """
    /// Runs a test where the corpus is found, and wherever `GUIDED_CORPORA` is set (a folder it
    /// names that does not hold the corpus fails the test); skips it elsewhere, saying why.
    static let corpusIsPresent = ConditionTrait.enabled(
        if: !files.isEmpty || namedFolder != nil,
        "JSONSchemaBench-dev is not at \(folder.path) and GUIDED_CORPORA is unset, as in a clean clone: \(howToGet)")

    /// One schema of the corpus with its instances.
    struct Entry {
        var id: String
        var schema: String
        var tests: [JSONValue]
    }

    /// The entries of every subset, one list a file in the order of its lines; fails the test,
    /// saying how to get the corpus, when a subset is missing, a line is not an entry, or there
    /// are fewer schemas than the sample's.
    static func corpus() throws -> [[Entry]] {
        let missing = subsets.filter { !files.contains($0 + ".jsonl") }
        try #require(missing.isEmpty, "\(folder.path) lacks \(missing.joined(separator: ", ")): \(howToGet)")
        let entries = try files.map { file in
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            return try text.split(separator: "\n").enumerated().map { number, line in
                guard let entry = try? JSONValue(parsing: String(line)), let schema = entry["schema"]?.jsonString,
                    case .array(let tests)? = entry["tests"]
                else {
                    throw CorpusError(description: "\(file), line \(number + 1): not a schema entry {\"id\", \"schema\", \"tests\"}: \(howToGet)")
                }
                return Entry(id: entry["id"]?.stringValue ?? "\(file):\(number + 1)", schema: schema, tests: tests)
            }
        }
        let schemas = entries.reduce(0) { $0 + $1.count }
        try #require(schemas >= sampleSchemas, "\(folder.path) holds \(schemas) schemas, fewer than the sample's \(sampleSchemas): \(howToGet)")
        return entries
    }

    /// A corpus file that does not hold what it should.
    struct CorpusError: Error, CustomStringConvertible {
        var description: String
    }

    @Test(RealWorldSchemaTests.corpusIsPresent) func everyInstanceTheGrammarLetsThroughIsValid() throws {
        let options = CompileOptions(extraProperties: .allow)
        var schemas = 0
        var instances = 0
        var compiled = 0
        var checked = 0
        for entries in try Self.corpus() {
            for entry in entries {
                schemas += 1
                instances += entry.tests.count
                guard let grammar = try? CompiledGrammar(jsonSchema: entry.schema, options: options) else { continue }
                // A schema the grammar takes must be one the final check reads.
                let validator: SchemaValidator
                do {
                    validator = try SchemaValidator(jsonSchema: entry.schema, options: options)
                } catch {
                    Issue.record("\(entry.id): the grammar compiles but the validator does not read the schema: \(error)")
                    continue
                }
                compiled += 1
                let matcher = GrammarMatcher(grammar: grammar)
                for test in entry.tests {
                    guard let instance = test["data"], let spellings = InstanceSpellings.all(instance, limit: 200) else { continue }
                    for spelling in spellings where matcher.accepts(document: Array(spelling.utf8)) {
                        checked += 1
                        if let violation = validator.violation(in: spelling) {
                            Issue.record("\(entry.id): the grammar lets through \(spelling.prefix(200)), which breaks \(violation)")
                        }
                    }
                }
            }
        }
        print("JSONSchemaBench-dev at \(Self.folder.path): \(schemas) schemas, \(instances) instances, \(compiled) compiled, \(checked) accepted spellings checked")
        #expect(compiled > schemas * 3 / 4)
    }

    /// On every other schema, the indented layout lets through the same values as the compact
    /// one: each spelling of each instance is accepted in both layouts or in neither. The layout
    /// takes more automaton states, so a few schemas near the budget compile only compact.
    @Test(RealWorldSchemaTests.corpusIsPresent) func indentedLayoutAcceptsTheSameValues() throws {
        let compact = CompileOptions(extraProperties: .allow)
        let indented = CompileOptions(whitespace: .indented(2), extraProperties: .allow)
        var compared = 0
        var accepted = 0
        var compiled = 0
        var tooLarge = 0
        for entries in try Self.corpus() {
            for (number, entry) in entries.enumerated() where number % 2 == 0 {
                guard let flat = try? CompiledGrammar(jsonSchema: entry.schema, options: compact) else { continue }
                compiled += 1
                let laidOut: CompiledGrammar
                do {
                    laidOut = try CompiledGrammar(jsonSchema: entry.schema, options: indented)
                } catch {
                    guard case .tooLarge = error else { throw error }
                    tooLarge += 1
                    continue
                }
                let flatMatcher = GrammarMatcher(grammar: flat)
                let laidOutMatcher = GrammarMatcher(grammar: laidOut)
                for test in entry.tests {
                    guard let instance = test["data"], let spellings = InstanceSpellings.all(instance, limit: 50),
                        let layouts = InstanceSpellings.all(instance, limit: 50, indent: 2), spellings.count == layouts.count
                    else { continue }
                    for (spelling, layout) in zip(spellings, layouts) {
                        let expected = flatMatcher.accepts(document: Array(spelling.utf8))
                        compared += 1
                        if expected { accepted += 1 }
                        if laidOutMatcher.accepts(document: Array(layout.utf8)) != expected {
                            Issue.record("\(entry.id): the compact layout \(expected ? "accepts" : "refuses") \(spelling.prefix(200)), the indented one not")
                        }
                    }
                }
            }
        }
        print("JSONSchemaBench-dev, indented layout: \(compared) spellings compared, \(accepted) accepted; \(tooLarge) of \(compiled) schemas too large")
        #expect(accepted > 1000)
        #expect(tooLarge * 100 <= compiled)
    }

    /// On a sample of the schemas, the mask at each step of a valid instance's spelling holds
    /// exactly the tokens that the matcher accepts one by one, over a vocabulary cut from the
    /// instances themselves (keys, quotes, escapes and partial characters, as real ones have).
    @Test(RealWorldSchemaTests.corpusIsPresent) func masksMatchTokenByTokenChecks() throws {
        let options = CompileOptions(whitespace: .flexible(maximum: 20), extraProperties: .allow)
        var cases: [(grammar: CompiledGrammar, spelling: [UInt8])] = []
        var pieces = Set<[UInt8]>()
        for entries in try Self.corpus() {
            for (number, entry) in entries.enumerated() where number % 12 == 0 {
                guard let instance = entry.tests.first(where: { $0["valid"] == .bool(true) })?["data"],
                    let grammar = try? CompiledGrammar(jsonSchema: entry.schema, options: options)
                else { continue }
                let spelling = Array(instance.jsonString.utf8.prefix(300))
                cases.append((grammar, spelling))
                for start in stride(from: 0, to: spelling.count, by: 5) {
                    for length in 2...6 where start + length <= spelling.count { pieces.insert(Array(spelling[start..<start + length])) }
                }
            }
        }
        var tokens = (0...255).map { [UInt8($0)] } + pieces.sorted { $0.lexicographicallyPrecedes($1) }
        tokens.append([])
        let vocabulary = Vocabulary(tokens: tokens, specialTokens: [], endOfText: Int32(tokens.count - 1))
        var mask = TokenBitset(capacity: vocabulary.count)
        var steps = 0
        for (grammar, spelling) in cases {
            let matcher = GrammarMatcher(grammar: grammar, vocabulary: vocabulary)
            var position = 0
            for _ in 0..<30 where position < spelling.count {
                matcher.allowedTokens(into: &mask)
                steps += 1
                for id in 0..<Int32(vocabulary.count) where mask.contains(id) != matcher.canAdvance(token: id) {
                    Issue.record("token \(String(decoding: tokens[Int(id)], as: UTF8.self)) after \(String(decoding: spelling[..<position], as: UTF8.self))")
                }
                // The longest piece of the vocabulary that spells on.
                let length = (1...min(6, spelling.count - position)).reversed().first { pieces.contains(Array(spelling[position..<position + $0])) } ?? 1
                guard matcher.advance(bytes: spelling[position..<position + length]) else { break }
                position += length
            }
        }
        print("mask checks: \(cases.count) schemas, \(vocabulary.count) tokens, \(steps) steps")
        #expect(steps > 1000)
    }
}
