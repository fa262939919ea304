@testable import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing
import TestSupport

/// The official JSON-Schema-Test-Suite, drafts 4, 6, 7, 2019-09 and 2020-12: for every schema
/// the compiler accepts, every valid instance is accepted and every invalid one rejected, byte by
/// byte, in compact canonical spelling with members in schema order. Valid instances that the
/// generation policy cannot produce (extra properties while they are forbidden, formats asserted)
/// are counted apart.
///
/// The suite's cases of every draft are in the repository, in `Tests/Corpora` (MIT licensed,
/// unmodified; see its SOURCES.md), so they run on every checkout, CI's clean clone included:
/// 1,404 schemas with 4,942 instances. Nothing drops a case silently: a draft whose folder holds
/// other than its pinned numbers of files, schemas and instances fails the test, and so does a
/// file, schema group or instance that cannot be read, and a schema that the compiler compiles
/// but the validator (the final check) does not read.
@Suite(.threadOfItsOwn) struct ConformanceTests {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let suiteFolder = testsFolder.appendingPathComponent("Corpora/JSON-Schema-Test-Suite/tests")
    static let drafts = ["draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"]
    /// The files, schemas and instances of each draft at the suite's commit in
    /// `Tests/Corpora/SOURCES.md` (update them with the suite).
    static let expectedSize: [String: (files: Int, schemas: Int, instances: Int)] = [
        "draft4": (30, 160, 618), "draft6": (36, 232, 839), "draft7": (37, 257, 927),
        "draft2019-09": (46, 372, 1259), "draft2020-12": (46, 383, 1299),
    ]

    struct Row {
        var draft = ""
        var file: String
        var schemas = 0
        var instances = 0
        var refused = 0
        var validAccepted = 0
        var validPolicyExcluded = 0
        var invalidRejected = 0
        var failures: [String] = []
        var validatorDisagreements: [String] = []
        var lenientCompiled = 0
        var refusedKeywords: [String: Int] = [:]
    }

    static func draftOption(_ draft: String) -> SchemaDraft {
        switch draft {
        case "draft4": .draft4
        case "draft6": .draft6
        case "draft7": .draft7
        case "draft2019-09": .draft2019_09
        default: .draft2020_12
        }
    }

    static func run(draft: String, file: String) throws -> Row {
        var row = Row(draft: draft, file: file)
        let text = try String(contentsOf: suiteFolder.appendingPathComponent(draft).appendingPathComponent(file), encoding: .utf8)
        guard case .array(let groups) = try JSONValue(parsing: text) else {
            row.failures.append("\(draft)/\(file): not an array of schema groups")
            return row
        }
        let defaultDraft = draftOption(draft)
        for (index, group) in groups.enumerated() {
            guard let schema = group["schema"], case .array(let tests)? = group["tests"] else {
                row.failures.append("\(draft)/\(file): group \(index) has no schema or no tests")
                continue
            }
            let description = group["description"]?.stringValue ?? "?"
            var cases: [(label: String, instance: JSONValue, valid: Bool)] = []
            for test in tests {
                let label = "\(draft)/\(file): \(description): \(test["description"]?.stringValue ?? "?")"
                guard let instance = test["data"], let valid = test["valid"]?.boolValue else {
                    row.failures.append("\(label): an instance without its data or its verdict")
                    continue
                }
                cases.append((label, instance, valid))
            }
            row.schemas += 1
            row.instances += tests.count
            checkValidator(schema, cases, defaultDraft: defaultDraft, into: &row)
            checkLenient(schema, cases, defaultDraft: defaultDraft, into: &row)
            let grammar: CompiledGrammar
            switch Self.compile(schema.jsonString, options: CompileOptions(defaultDraft: defaultDraft)) {
            case .success(let compiled):
                grammar = compiled
            case .failure(let error):
                row.refused += 1
                if ProcessInfo.processInfo.environment["CONFORMANCE_VERBOSE"] != nil { print("refused \(draft)/\(file): \(description): \(error)") }
                switch error {
                case .unsupported(let keyword, _, _), .invalid(let keyword, _, _): row.refusedKeywords[keyword.isEmpty ? "(schema)" : keyword, default: 0] += 1
                case .invalidJSON: row.refusedKeywords["(json)", default: 0] += 1
                case .tooLarge: row.refusedKeywords["(size)", default: 0] += 1
                }
                continue
            }
            let strict = GrammarMatcher(grammar: grammar)
            let standard = try? Self.compile(schema.jsonString, options: CompileOptions(extraProperties: .allow, defaultDraft: defaultDraft)).get()
            let annotated = try? Self.compile(schema.jsonString, options: CompileOptions(extraProperties: .allow, assertsFormats: false, defaultDraft: defaultDraft)).get()
            for (label, instance, valid) in cases {
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

    /// The validator on its own reads every schema of the suite, and agrees with the suite on
    /// every instance (formats as annotations, as the suite has them) but for references it does
    /// not follow.
    static func checkValidator(_ schema: JSONValue, _ cases: [(label: String, instance: JSONValue, valid: Bool)], defaultDraft: SchemaDraft, into row: inout Row) {
        let validator: SchemaValidator
        do {
            validator = try SchemaValidator(jsonSchema: schema.jsonString, options: CompileOptions(assertsFormats: false, defaultDraft: defaultDraft))
        } catch {
            row.failures.append("\(cases.first?.label ?? "a schema"): the validator does not read the schema: \(error)")
            return
        }
        for (label, instance, valid) in cases where (validator.violation(in: instance.jsonString) == nil) != valid {
            // Calling a valid instance invalid is the safe side (a reference it cannot follow);
            // the other way round would let a wrong value through.
            if valid {
                row.validatorDisagreements.append("\(label): the validator calls a valid instance invalid")
            } else {
                row.failures.append("\(label): the validator calls an invalid instance valid")
            }
        }
    }

    /// Lenient mode: an invalid instance that the grammar lets through is caught by the final
    /// check, so none is returned as valid. A schema lenient mode refuses gives no value at all
    /// (it is not counted as lenient compiled); one whose grammar compiles while the final check
    /// does not read it is a failure.
    static func checkLenient(_ schema: JSONValue, _ cases: [(label: String, instance: JSONValue, valid: Bool)], defaultDraft: SchemaDraft, into row: inout Row) {
        let options = CompileOptions(extraProperties: .allow, isLenient: true, defaultDraft: defaultDraft)
        guard let grammar = try? Self.compile(schema.jsonString, options: options).get() else { return }
        let validator: SchemaValidator
        do {
            validator = try SchemaValidator(jsonSchema: schema.jsonString, options: options)
        } catch {
            row.failures.append("\(cases.first?.label ?? "a schema"): lenient: the grammar compiles but the final check does not read the schema: \(error)")
            return
        }
        row.lenientCompiled += 1
        let matcher = GrammarMatcher(grammar: grammar)
        for (label, instance, valid) in cases where !valid {
            guard let spellings = InstanceSpellings.all(instance) else { continue }
            if spellings.contains(where: { matcher.accepts(document: Array($0.utf8)) }) && validator.violation(in: instance.jsonString) == nil {
                row.failures.append("\(label): lenient: invalid instance returned as valid: \(spellings[0])")
            }
        }
    }

    static func compile(_ schema: String, options: CompileOptions = CompileOptions()) -> Result<CompiledGrammar, SchemaError> {
        Result { () throws(SchemaError) in try CompiledGrammar(jsonSchema: schema, options: options) }
    }

    static func files(of draft: String) -> [String] {
        let folder = suiteFolder.appendingPathComponent(draft)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    static func total(_ rows: [Row], named name: String) -> Row {
        rows.reduce(into: Row(file: name)) { total, row in
            total.schemas += row.schemas
            total.instances += row.instances
            total.refused += row.refused
            total.validAccepted += row.validAccepted
            total.validPolicyExcluded += row.validPolicyExcluded
            total.invalidRejected += row.invalidRejected
            total.failures += row.failures
            total.validatorDisagreements += row.validatorDisagreements
            total.lenientCompiled += row.lenientCompiled
            total.refusedKeywords.merge(row.refusedKeywords, uniquingKeysWith: +)
        }
    }

    static func line(_ row: Row, _ name: String) -> String {
        "| \(name) | \(row.schemas) | \(row.refused) | \(row.validAccepted) | \(row.validPolicyExcluded) | \(row.invalidRejected) | \(row.lenientCompiled) | \(row.validatorDisagreements.count) | \(row.failures.count) |\n"
    }

    static func keywordList(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map { "`\($0.key)` \($0.value)" }.joined(separator: ", ")
    }

    @Test func everyCompiledSchemaAcceptsItsValidInstancesAndRejectsItsInvalidOnes() throws {
        let header = "| draft / file | schemas | refused | valid accepted | valid policy-excluded | invalid rejected | lenient compiled | validator disagrees | failures |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
        var summary = header
        var details = ""
        var totals: [Row] = []
        for draft in Self.drafts {
            let files = Self.files(of: draft)
            var rows: [Row] = []
            for file in files { rows.append(try Self.run(draft: draft, file: file)) }
            let total = Self.total(rows, named: draft)
            let expected = try #require(Self.expectedSize[draft])
            #expect(
                files.count == expected.files && total.schemas == expected.schemas && total.instances == expected.instances,
                """
                \(Self.suiteFolder.appendingPathComponent(draft).path) holds \(files.count) files, \(total.schemas) schemas and \
                \(total.instances) instances of the suite, not \(expected.files), \(expected.schemas) and \(expected.instances): \
                restore Tests/Corpora from the repository
                """)
            totals.append(total)
            summary += Self.line(total, "**\(draft)**")
            details += "\n## \(draft)\n\n" + header + rows.map { Self.line($0, $0.file) }.joined()
            details += "\nRefused schemas by keyword: " + Self.keywordList(total.refusedKeywords) + "\n"
            for failure in total.failures { Issue.record(Comment(rawValue: failure)) }
            if ProcessInfo.processInfo.environment["CONFORMANCE_VERBOSE"] != nil { total.validatorDisagreements.forEach { print($0) } }
        }
        let all = Self.total(totals, named: "all drafts")
        summary += Self.line(all, "**all drafts**")
        summary += "\nRefused schemas by keyword, all drafts: " + Self.keywordList(all.refusedKeywords) + "\n"
        print(summary)
        print("JSON-Schema-Test-Suite: \(all.schemas) schemas and \(all.instances) instances read from \(Self.suiteFolder.path)")
        if ProcessInfo.processInfo.environment["UPDATE_CONFORMANCE_TABLE"] != nil {
            let title = """
                # JSON-Schema-Test-Suite conformance

                Written by `UPDATE_CONFORMANCE_TABLE=1 swift test --filter ConformanceTests`, from the suite's \
                drafts 4, 6, 7, 2019-09 and 2020-12. Per schema of the suite: refused (the default policy \
                names a keyword it cannot enforce), else each valid instance accepted, or accepted only \
                under JSON Schema's own semantics (extra properties allowed, formats as annotations: \
                policy-excluded), and each invalid instance rejected. Lenient compiled: schemas compiled \
                with the lenient policy, where no invalid instance gets through both the grammar and the \
                final check. Validator disagrees: valid instances the final check calls invalid (references \
                to other documents and dynamic scopes, which it does not follow); it never calls an \
                invalid instance valid. Failures must be 0.


                """
            try (title + summary + details).write(to: Self.testsFolder.appendingPathComponent("ConstrainedDecodingConformance.md"), atomically: true, encoding: .utf8)
        }
        #expect(all.failures.isEmpty)
    }
}
