@testable import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing

/// The real-world schemas of JSONSchemaBench-dev (GitHub, Kubernetes, Snowplow, JSON Schema
/// Store, function calls, ...), read from the shared corpora beside the repository: every schema
/// the compiler accepts lets through only values that the whole schema accepts, valid and invalid
/// instances alike, under JSON Schema's own semantics (extra properties allowed).
@Suite struct RealWorldSchemaTests {
    static let folder = ConformanceTests.suiteFolder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JSONSchemaBench-dev")

    @Test func everyInstanceTheGrammarLetsThroughIsValid() throws {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
        // The corpora are beside the repository, not in it; without them there is nothing to read.
        guard !files.isEmpty else { return }
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
}
