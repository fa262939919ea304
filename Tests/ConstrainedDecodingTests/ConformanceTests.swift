@testable import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing

/// The official JSON-Schema-Test-Suite (draft 2020-12): for every schema the compiler accepts,
/// every valid instance is accepted and every invalid one rejected, byte by byte, in compact
/// canonical spelling with members in schema order. Valid instances that the generation policy
/// cannot produce (extra properties while they are forbidden, formats asserted) are counted apart.
@Suite struct ConformanceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpora/JSON-Schema-Test-Suite/tests/draft2020-12")

    struct Row {
        var file: String
        var schemas = 0
        var refused = 0
        var validAccepted = 0
        var validPolicyExcluded = 0
        var invalidRejected = 0
        var failures: [String] = []
        var refusedKeywords: [String: Int] = [:]
    }

    static func run(file: String) throws -> Row {
        var row = Row(file: file)
        let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        guard case .array(let groups) = try JSONValue(parsing: text) else { return row }
        for group in groups {
            guard let schema = group["schema"], case .array(let tests)? = group["tests"] else { continue }
            let description = group["description"]?.stringValue ?? "?"
            row.schemas += 1
            let grammar: CompiledGrammar
            switch Self.compile(schema.jsonString) {
            case .success(let compiled):
                grammar = compiled
            case .failure(let error):
                row.refused += 1
                switch error {
                case .unsupported(let keyword, _, _), .invalid(let keyword, _, _): row.refusedKeywords[keyword.isEmpty ? "(schema)" : keyword, default: 0] += 1
                case .invalidJSON: row.refusedKeywords["(json)", default: 0] += 1
                case .tooLarge: row.refusedKeywords["(size)", default: 0] += 1
                }
                continue
            }
            let strict = GrammarMatcher(grammar: grammar)
            let standard = try? Self.compile(schema.jsonString, options: CompileOptions(extraProperties: .allow)).get()
            let annotated = try? Self.compile(schema.jsonString, options: CompileOptions(extraProperties: .allow, assertsFormats: false)).get()
            for test in tests {
                guard let instance = test["data"], let valid = test["valid"]?.boolValue else { continue }
                let label = "\(file): \(description): \(test["description"]?.stringValue ?? "?")"
                guard let spellings = InstanceSpellings.all(instance) else {
                    row.failures.append("\(label): too many spellings to check")
                    continue
                }
                func accepted(_ matcher: GrammarMatcher?) -> Bool {
                    guard let matcher else { return false }
                    return spellings.contains { matcher.accepts(document: Array($0.utf8)) }
                }
                if valid {
                    if accepted(strict) {
                        row.validAccepted += 1
                    } else if accepted(standard.map { GrammarMatcher(grammar: $0) }) || accepted(annotated.map { GrammarMatcher(grammar: $0) }) {
                        row.validPolicyExcluded += 1
                    } else {
                        row.failures.append("\(label): valid instance rejected: \(spellings[0])")
                    }
                } else {
                    if accepted(strict) || accepted(standard.map { GrammarMatcher(grammar: $0) }) {
                        row.failures.append("\(label): invalid instance accepted: \(spellings[0])")
                    } else {
                        row.invalidRejected += 1
                    }
                }
            }
        }
        return row
    }

    static func compile(_ schema: String, options: CompileOptions = CompileOptions()) -> Result<CompiledGrammar, SchemaError> {
        Result { () throws(SchemaError) in try CompiledGrammar(jsonSchema: schema, options: options) }
    }

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func everyCompiledSchemaAcceptsItsValidInstancesAndRejectsItsInvalidOnes() throws {
        #expect(Self.files.count > 40)
        var rows: [Row] = []
        for file in Self.files { rows.append(try Self.run(file: file)) }
        var table = "| file | schemas | refused | valid accepted | valid policy-excluded | invalid rejected | failures |\n| --- | --- | --- | --- | --- | --- | --- |\n"
        var refusedKeywords: [String: Int] = [:]
        for row in rows {
            table += "| \(row.file) | \(row.schemas) | \(row.refused) | \(row.validAccepted) | \(row.validPolicyExcluded) | \(row.invalidRejected) | \(row.failures.count) |\n"
            refusedKeywords.merge(row.refusedKeywords, uniquingKeysWith: +)
            for failure in row.failures { Issue.record(Comment(rawValue: failure)) }
        }
        let total = rows.reduce(into: Row(file: "total")) { total, row in
            total.schemas += row.schemas
            total.refused += row.refused
            total.validAccepted += row.validAccepted
            total.validPolicyExcluded += row.validPolicyExcluded
            total.invalidRejected += row.invalidRejected
            total.failures += row.failures
        }
        table += "| **total** | \(total.schemas) | \(total.refused) | \(total.validAccepted) | \(total.validPolicyExcluded) | \(total.invalidRejected) | \(total.failures.count) |\n"
        table += "\nRefused schemas by keyword: " + refusedKeywords.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            .map { "`\($0.key)` \($0.value)" }.joined(separator: ", ") + "\n"
        print(table)
        if ProcessInfo.processInfo.environment["UPDATE_CONFORMANCE_TABLE"] != nil {
            let header = "# JSON-Schema-Test-Suite (draft 2020-12) conformance\n\nWritten by `UPDATE_CONFORMANCE_TABLE=1 swift test --filter ConformanceTests`.\n\n"
            try (header + table).write(
                to: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("ConstrainedDecodingConformance.md"),
                atomically: true, encoding: .utf8)
        }
        #expect(total.failures.isEmpty)
    }
}
