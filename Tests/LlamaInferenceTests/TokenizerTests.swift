import Foundation
@testable import LlamaInference
import Testing

/// The tokenizer against Hugging Face `tokenizers`, an independent implementation: the fixture
/// holds 2,200 varied strings and the ids it gives them (`Tests/scripts/make-tokenizer-fixture.py`).
@Suite struct TokenizerTests {
    @Test func everyFixtureStringTokenizesIdentically() throws {
        try Self.expectTokenizes(like: "smollm2-tokenizer.jsonl", try BPETokenizer(file: try TestModel.require()), atLeast: 2000)
    }

    /// Every string of a fixture (lines of `{"text", "ids"}`) gets the fixture's ids from
    /// `tokenizer`, and decodes back to itself.
    static func expectTokenizes(like fixture: String, _ tokenizer: any Tokenizer, atLeast count: Int) throws {
        let lines = try String(contentsOf: TestModel.fixtures.appendingPathComponent(fixture), encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= count)
        var mismatches = 0
        for line in lines {
            let entry = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let text = try #require(entry?["text"] as? String)
            let expected = try #require(entry?["ids"] as? [Int]).map(Int32.init)
            let ids = tokenizer.encode(text)
            if ids != expected {
                mismatches += 1
                if mismatches <= 5 { Issue.record("\(text.debugDescription): \(ids) instead of \(expected)") }
            }
            #expect(tokenizer.decode(ids) == text)
        }
        #expect(mismatches == 0)
    }

    @Test func specialTokensOnlyFromTemplates() throws {
        let tokenizer = try BPETokenizer(file: try TestModel.require())
        let text = "<|im_start|>user\nHi<|im_end|>"
        #expect(tokenizer.encode(text, parsingSpecialTokens: true).first == 1)
        #expect(tokenizer.encode(text, parsingSpecialTokens: true).last == 2)
        #expect(!tokenizer.encode(text).contains(1))
        #expect(tokenizer.specialTokens.contains(1) && tokenizer.endOfText == 2)
    }
}

/// The pre-tokenizers against Hugging Face `tokenizers`' splits with the same patterns
/// (`Tests/scripts/make-pretokenizer-fixture.py`), on the 2,200 strings of the tokenizer fixture.
@Suite struct PreTokenizerTests {
    @Test(arguments: ["gpt2", "llama-bpe", "qwen2"])
    func splitsAsTheReference(_ name: String) throws {
        let preTokenizer = try #require(PreTokenizer(name: name))
        let texts = try String(contentsOf: TestModel.fixtures.appendingPathComponent("smollm2-tokenizer.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { line in
                try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["text"] as? String)
            }
        let expected = try String(contentsOf: TestModel.fixtures.appendingPathComponent("pretokenizer-pieces.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { line in
                try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [Int]])?[name])
            }
        #expect(texts.count == expected.count && texts.count >= 2000)
        var mismatches = 0
        for (text, lengths) in zip(texts, expected) {
            let pieces = preTokenizer.split(text).map(\.count)
            if pieces != lengths {
                mismatches += 1
                if mismatches <= 5 { Issue.record("\(name), \(text.debugDescription): \(pieces) instead of \(lengths)") }
            }
        }
        #expect(mismatches == 0)
    }
}
