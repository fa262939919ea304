@testable import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing
import TestSupport

/// The real-world schemas of JSONSchemaBench-dev (GitHub, Kubernetes, Snowplow, JSON Schema
/// Store, function calls, ...), read from the shared corpora beside the repository: every schema
/// the compiler accepts lets through only values that the whole schema accepts, valid and invalid
/// instances alike, under JSON Schema's own semantics (extra properties allowed).
@Suite(.threadOfItsOwn) struct RealWorldSchemaTests {
    /// The corpus states no license, so it is not in the repository: it is read from
    /// `$GUIDED_CORPORA/JSONSchemaBench-dev`, else `../shared/corpora/JSONSchemaBench-dev` beside the
    /// checkout (README, "What the tests leave out").
    static let folder = (ProcessInfo.processInfo.environment["GUIDED_CORPORA"].map { URL(fileURLWithPath: $0) }
        ?? ConformanceTests.testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpora"))
        .appendingPathComponent("JSONSchemaBench-dev")
    /// The corpus's files.
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
    /// Skips a test, saying why and how to run it, when the corpus is not there.
    static let corpusIsPresent = ConditionTrait.enabled(
        if: !files.isEmpty,
        "JSONSchemaBench-dev is not at \(folder.path): set GUIDED_CORPORA to the folder that holds it (see README, \"What the tests leave out\")")

    @Test(RealWorldSchemaTests.corpusIsPresent) func everyInstanceTheGrammarLetsThroughIsValid() throws {
        let files = Self.files
        let options = CompileOptions(extraProperties: .allow)
        var schemas = 0
        var compiled = 0
        var checked = 0
        for file in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.isEmpty {
                let entry = try JSONValue(parsing: String(line))
                guard let schema = entry["schema"]?.jsonString, case .array(let tests)? = entry["tests"] else { continue }
                schemas += 1
                guard let grammar = try? CompiledGrammar(jsonSchema: schema, options: options),
                    let validator = try? SchemaValidator(jsonSchema: schema, options: options)
                else { continue }
                compiled += 1
                let matcher = GrammarMatcher(grammar: grammar)
                for test in tests {
                    guard let instance = test["data"], let spellings = InstanceSpellings.all(instance, limit: 200) else { continue }
                    for spelling in spellings where matcher.accepts(document: Array(spelling.utf8)) {
                        checked += 1
                        if let violation = validator.violation(in: spelling) {
                            Issue.record("\(entry["id"]?.stringValue ?? "?"): the grammar lets through \(spelling.prefix(200)), which breaks \(violation)")
                        }
                    }
                }
            }
        }
        print("JSONSchemaBench-dev: \(schemas) schemas, \(compiled) compiled, \(checked) accepted spellings checked")
        #expect(compiled > schemas * 3 / 4)
    }

    /// On every other schema, the indented layout lets through the same values as the compact
    /// one: each spelling of each instance is accepted in both layouts or in neither. The layout
    /// takes more automaton states, so a few schemas near the budget compile only compact.
    @Test(RealWorldSchemaTests.corpusIsPresent) func indentedLayoutAcceptsTheSameValues() throws {
        let files = Self.files
        let compact = CompileOptions(extraProperties: .allow)
        let indented = CompileOptions(whitespace: .indented(2), extraProperties: .allow)
        var compared = 0
        var accepted = 0
        var compiled = 0
        var tooLarge = 0
        for file in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n").enumerated() where number % 2 == 0 {
                let entry = try JSONValue(parsing: String(line))
                guard let schema = entry["schema"]?.jsonString, case .array(let tests)? = entry["tests"],
                    let flat = try? CompiledGrammar(jsonSchema: schema, options: compact)
                else { continue }
                compiled += 1
                let laidOut: CompiledGrammar
                do {
                    laidOut = try CompiledGrammar(jsonSchema: schema, options: indented)
                } catch {
                    guard case .tooLarge = error else { throw error }
                    tooLarge += 1
                    continue
                }
                let flatMatcher = GrammarMatcher(grammar: flat)
                let laidOutMatcher = GrammarMatcher(grammar: laidOut)
                for test in tests {
                    guard let instance = test["data"], let spellings = InstanceSpellings.all(instance, limit: 50),
                        let layouts = InstanceSpellings.all(instance, limit: 50, indent: 2), spellings.count == layouts.count
                    else { continue }
                    for (spelling, layout) in zip(spellings, layouts) {
                        let expected = flatMatcher.accepts(document: Array(spelling.utf8))
                        compared += 1
                        if expected { accepted += 1 }
                        if laidOutMatcher.accepts(document: Array(layout.utf8)) != expected {
                            Issue.record("\(entry["id"]?.stringValue ?? "?"): the compact layout \(expected ? "accepts" : "refuses") \(spelling.prefix(200)), the indented one not")
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
        let files = Self.files
        let options = CompileOptions(whitespace: .flexible(maximum: 20), extraProperties: .allow)
        var cases: [(grammar: CompiledGrammar, spelling: [UInt8])] = []
        var pieces = Set<[UInt8]>()
        for file in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n").enumerated() where number % 12 == 0 {
                let entry = try JSONValue(parsing: String(line))
                guard let schema = entry["schema"]?.jsonString, case .array(let tests)? = entry["tests"],
                    let instance = tests.first(where: { $0["valid"] == .bool(true) })?["data"],
                    let grammar = try? CompiledGrammar(jsonSchema: schema, options: options)
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
