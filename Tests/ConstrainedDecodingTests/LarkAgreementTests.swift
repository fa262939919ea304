import ConstrainedDecoding
import Foundation
import PartialJSON
import Testing

/// The engine reads Lark as the `lark` package does: every text of
/// `Tests/Fixtures/lark-verdicts.json` gets the verdict that lark's Earley parser (with the
/// `dynamic_complete` lexer, which tries every cut of the text into terminals) gave it under the
/// same grammar. Six grammars of the fixture cover left recursion, aliases, `%ignore`, imports
/// from `common`, case-insensitive keywords, optional clauses, terminals made of terminals,
/// ranges and counts; `Tests/scripts/lark-fixture.py` wrote the verdicts with lark and checks
/// that lark still gives them.
@Suite struct LarkAgreementTests {
    @Test func everyTextGetsLarksVerdict() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/lark-verdicts.json")
        let fixture = try JSONValue(parsing: Data(contentsOf: url))
        let grammars = try #require(fixture["grammars"]?.objectValue)
        let texts = try #require(fixture["texts"]?.arrayValue)
        #expect(grammars.count == 6 && texts.count >= 200)
        var compiled: [String: CompiledGrammar] = [:]
        for member in grammars {
            do {
                compiled[member.key] = try CompiledGrammar(lark: try #require(member.value.stringValue))
            } catch {
                Issue.record("\(member.key) does not compile: \(error)")
            }
        }
        var counts: [String: (valid: Int, invalid: Int)] = [:]
        for entry in texts {
            guard let name = entry["grammar"]?.stringValue, let grammar = compiled[name], let text = entry["text"]?.stringValue,
                let isValid = entry["valid"]?.boolValue
            else {
                Issue.record("a fixture entry without a known grammar, a text and a verdict: \(entry)")
                continue
            }
            #expect(
                GrammarMatcher(grammar: grammar).accepts(document: Array(text.utf8)) == isValid,
                "\(name): \(text.debugDescription) is \(isValid ? "valid" : "invalid") for lark")
            counts[name, default: (0, 0)].valid += isValid ? 1 : 0
            counts[name, default: (0, 0)].invalid += isValid ? 0 : 1
        }
        for (name, count) in counts {
            #expect(count.valid >= 15 && count.invalid >= 15, "\(name): \(count)")
        }
    }
}
