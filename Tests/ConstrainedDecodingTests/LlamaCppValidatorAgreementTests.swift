import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing

/// The engine reads llama.cpp's example grammars as llama.cpp does: every text of
/// `Tests/Fixtures/gbnf-validator.jsonl` gets the verdict that llama.cpp's own grammar checker
/// (`test-gbnf-validator`) gave it under the same grammar. The texts probe each grammar's edges
/// (escapes, nesting, repetition counts, whitespace, Unicode ranges, the empty text);
/// `Tests/scripts/gbnf-validator-fixture.py` wrote them with the checker's verdicts, and
/// `Tests/gbnf-validator.sh` checks that the checker still gives them. The texts nest less deeply
/// than ``CompileOptions/maximumReferenceDepth`` allows: the checker has no such bound, so a text
/// that nests deeper (32 arrays in `json.gbnf`) is one it accepts and the engine refuses. The
/// grammars come from where ``LlamaCppGrammarTests`` finds them; without them the test fails.
@Suite struct LlamaCppValidatorAgreementTests {
    /// A text, the grammar it was checked under, and the checker's verdict.
    struct Entry {
        var grammar: String
        var text: String
        var isValid: Bool
    }

    /// The grammars of the fixture: llama.cpp's eight examples.
    static let grammars = ["arithmetic", "c", "chess", "english", "japanese", "json", "json_arr", "list"]

    /// The fewest texts of each verdict the fixture holds for a grammar.
    static let minimumPerVerdict = 20

    static func entries() throws -> [Entry] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gbnf-validator.jsonl")
        let bytes = try Data(contentsOf: url)
        var entries: [Entry] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let value = try JSONValue(parsing: line)
            guard let grammar = value["grammar"]?.stringValue, let text = value["text"]?.stringValue, let isValid = value["valid"]?.boolValue else {
                Issue.record("a fixture line without grammar, text and valid: \(String(decoding: line, as: UTF8.self))")
                continue
            }
            entries.append(Entry(grammar: grammar, text: text, isValid: isValid))
        }
        return entries
    }

    @Test func theFixtureCoversEveryGrammarBothWays() throws {
        let entries = try Self.entries()
        #expect(Set(entries.map(\.grammar)) == Set(Self.grammars))
        for grammar in Self.grammars {
            let ofGrammar = entries.filter { $0.grammar == grammar }
            #expect(ofGrammar.count(where: \.isValid) >= Self.minimumPerVerdict, "\(grammar): too few valid texts")
            #expect(ofGrammar.count(where: { !$0.isValid }) >= Self.minimumPerVerdict, "\(grammar): too few invalid texts")
        }
    }

    @Test(arguments: grammars) func everyTextGetsTheCheckersVerdict(grammar name: String) throws {
        let files = LlamaCppGrammarTests.grammarFiles()
        guard !files.isEmpty else { return }
        guard files.contains(name + ".gbnf") else {
            Issue.record("\(name).gbnf is missing from \(LlamaCppGrammarTests.folder.path)")
            return
        }
        let text = try String(contentsOf: LlamaCppGrammarTests.folder.appendingPathComponent(name + ".gbnf"), encoding: .utf8)
        let matcher = GrammarMatcher(grammar: try CompiledGrammar(gbnf: text))
        let entries = try Self.entries().filter { $0.grammar == name }
        #expect(!entries.isEmpty)
        for entry in entries {
            let accepted = matcher.accepts(document: Array(entry.text.utf8))
            #expect(
                accepted == entry.isValid,
                "\(name).gbnf: llama.cpp's checker \(entry.isValid ? "accepts" : "refuses") \(entry.text.debugDescription), the engine \(accepted ? "accepts" : "refuses") it")
        }
    }
}
