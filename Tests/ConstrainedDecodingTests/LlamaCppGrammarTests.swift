import ConstrainedDecoding
import Foundation
import Testing

/// The example grammars of llama.cpp (`grammars/*.gbnf`) compile and read texts of their kind.
/// They are not kept in the repository: the folder comes from `LLAMA_CPP_GRAMMARS`, else from
/// the cache folder where `scripts/build-llama-server.sh` keeps them beside llama-server.
@Suite struct LlamaCppGrammarTests {
    /// The folder of llama.cpp's grammars.
    static var folder: URL {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["LLAMA_CPP_GRAMMARS"], !folder.isEmpty { return URL(fileURLWithPath: folder) }
        let cache = environment["GUIDED_CACHE"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/guided")
        return cache.appendingPathComponent("llama-server-0.3.36/grammars")
    }

    /// A text each grammar accepts, and one it refuses.
    static let samples: [String: (valid: String, invalid: String)] = [
        "arithmetic": ("a+1=2\nx = (y*3)\n", "a+=2\n"),
        "c": ("int main(){return 0;}", "int main(){return 0}"),
        "chess": ("1. e4 e5\n2. Nf3 Nc6\n", "1. e4 e5\n"),
        "english": ("Hello, world!", "Hello,  world"),
        "japanese": ("こんにちは 世界", "hello"),
        "json": (#"{"a": [1, 2.5, "x", true, null], "b": {}}"#, #"{"a": [1,]}"#),
        "json_arr": ("[\n1,\n{\"k\": \"v\"}]", "[1]"),
        "list": ("- milk\n- eggs\n", "- milk"),
    ]

    /// The names of the grammar files in ``folder``, sorted; when there are none, an issue that
    /// says how to get them is recorded (a missing folder fails the test, it does not skip it).
    static func grammarFiles() -> [String] {
        let folder = Self.folder
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".gbnf") }.sorted()) ?? []
        if files.isEmpty {
            Issue.record("""
                llama.cpp's grammars are not in \(folder.path): run scripts/build-llama-server.sh (it keeps them \
                there), or set LLAMA_CPP_GRAMMARS to the grammars folder of llama.cpp (in PyPI's llama-cpp-python \
                0.3.36 sdist, vendor/llama.cpp/grammars: with cmake and scikit-build-core installed, python3 -m pip \
                download --no-deps --no-binary :all: --no-build-isolation llama-cpp-python==0.3.36, then untar it)
                """)
        }
        return files
    }

    @Test func everyGrammarOfLlamaCppCompiles() throws {
        let folder = Self.folder
        let files = Self.grammarFiles()
        guard !files.isEmpty else { return }
        for name in Self.samples.keys.sorted() {
            #expect(files.contains(name + ".gbnf"), "\(name).gbnf is missing from \(folder.path)")
        }
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let grammar: CompiledGrammar
            do {
                grammar = try CompiledGrammar(gbnf: text)
            } catch {
                Issue.record("\(file): \(error)")
                continue
            }
            guard let sample = Self.samples[String(file.dropLast(".gbnf".count))] else { continue }
            let matcher = GrammarMatcher(grammar: grammar)
            #expect(matcher.accepts(document: Array(sample.valid.utf8)), "\(file) should accept \(sample.valid.debugDescription)")
            #expect(!matcher.accepts(document: Array(sample.invalid.utf8)), "\(file) should refuse \(sample.invalid.debugDescription)")
            if file == "json.gbnf" {
                // Two rule references per level (object, value): 30 levels within the default depth.
                let nested = String(repeating: #"{"a":"#, count: 30) + "1" + String(repeating: "}", count: 30)
                #expect(matcher.accepts(document: Array(nested.utf8)), "json.gbnf nests 30 objects")
            }
        }
    }
}
