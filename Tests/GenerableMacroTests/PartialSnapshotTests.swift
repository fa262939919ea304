import Foundation
@testable import GuidedGeneration
import LlamaInference
import ModelFetching
import PartialJSON
import Testing
import TestSupport

// Types whose values are written and cut: enumerations inside arrays inside structures,
// enumerations with payloads, optional properties, nested arrays, and choices that begin alike.

@Generable
enum Course: String, CaseIterable {
    case food
    case foodAndDining
    case foo
}

@Generable
struct Entry: Equatable {
    var kind: Kind
    var kinds: [Kind]
    var course: Course?
    var day: Int
    var price: Double
    var done: Bool
    var note: String?
    var tags: [String]
}

@Generable
struct Journal: Equatable {
    var title: String
    var entries: [Entry]
    var mood: Course?
    var shapes: [Shape]
    var lastShape: Shape?
    var scores: [Double]
    var grid: [[Kind]]
    var comment: Comment?
}

/// Every prefix of a value's JSON text, as the model writes it, converts to the type's
/// `PartiallyGenerated` form without throwing, and each snapshot only adds to the one before.
/// (The tests compute for tens of seconds without suspending: each runs on a thread of its own.)
@Suite(.threadOfItsOwn) struct PartialSnapshotTests {
    @Test func everyBytePrefixConverts() throws {
        var random = SeededGenerator(seed: 66)
        var count = 0
        for _ in 0..<16 { count += try Self.checkPrefixes(of: Journal.random(&random)) }
        for _ in 0..<6 { count += try Self.checkPrefixes(of: Itinerary.random(&random)) }
        for _ in 0..<6 { count += try Self.checkPrefixes(of: Comment.random(&random, depth: 3)) }
        count += try Self.checkPrefixes(of: CatProfile(name: "나비", age: 4, profile: "호기심 많은 고양이 \"Nabi\"."))
        count += try Self.checkPrefixes(
            of: SearchSuggestions(searchTerms: ["a", "b\\c", "😀", "d"], code: "ABC-1234", price: 12.5, ratings: [1, 5], nickname: nil, tags: ["x"]))
        count += try Self.checkPrefixes(of: [Kind.foodAndDining, .shopping, .sightseeing])
        #expect(count > 5_000, "only \(count) prefixes were checked")
    }

    /// The same texts cut only where the tokenizers of the models this engine runs cut them.
    @Test(arguments: [KnownModel.smolLM2, KnownModel.qwen25Coder05B, KnownModel.gemma3_270m])
    func everyTokenPrefixConverts(model: KnownModel) throws {
        let path = ModelStore.path(of: model)
        try #require(ModelStore.isPresent(model), "\(model.fileName) is missing at \(path): run `swift run -c release guided fetch-model \(model.name)` first")
        let tokenizer = try makeTokenizer(file: try GGUFFile(path: path))
        var random = SeededGenerator(seed: 67)
        var count = 0
        for _ in 0..<24 {
            let journal = Journal.random(&random)
            count += try Self.checkPrefixes(of: journal, cuts: try Self.tokenEnds(of: journal.generatedContent.jsonString, tokenizer: tokenizer))
        }
        for _ in 0..<8 {
            let itinerary = Itinerary.random(&random)
            count += try Self.checkPrefixes(of: itinerary, cuts: try Self.tokenEnds(of: itinerary.generatedContent.jsonString, tokenizer: tokenizer))
        }
        #expect(count > 1_000, "only \(count) prefixes were checked")
    }

    /// Where each token of the text ends, in bytes.
    static func tokenEnds(of text: String, tokenizer: any Tokenizer) throws -> [Int] {
        let tokens = tokenizer.encode(text)
        try #require(tokenizer.bytes(of: tokens) == Array(text.utf8), "the tokens of \(text) do not spell it")
        var end = 0
        return tokens.map { token in
            end += tokenizer.bytes(of: [token]).count
            return end
        }
    }

    /// Feeds the value's compact JSON to a parser up to each cut (every byte by default) and
    /// checks each snapshot: its written text begins the whole text and reads back as the same
    /// content (a number that ends it aside), growing from one snapshot to the next; it converts to
    /// `PartiallyGenerated`; content and conversion only grow. The whole text gives the value.
    /// - Returns: how many prefixes were checked.
    static func checkPrefixes<Value: Generable>(of value: Value, cuts: [Int]? = nil) throws -> Int {
        let whole = value.generatedContent.jsonString
        let bytes = Array(whole.utf8)
        let parser = PartialJSONParser()
        var fed = 0
        var previous: (content: GeneratedContent, partial: Value.PartiallyGenerated)?
        var previousReread: GeneratedContent?
        var count = 0
        for end in cuts ?? Array(1...bytes.count) {
            try parser.feed(bytes[fed..<end])
            fed = end
            guard let root = parser.snapshot.root else { continue }
            let content = try GeneratedContent(snapshot: root)
            let prefix = String(decoding: bytes[..<end], as: UTF8.self)
            // The written text begins the whole value's compact JSON (a stream of it is a stream
            // of deltas), and reads back as this content, a number that ends it aside.
            #expect(whole.utf8.starts(with: content.writtenJSON.utf8), "the written text of \(prefix) does not begin \(whole)")
            let reread = try GeneratedContent(json: content.writtenJSON)
            if let failure = growthFailure(from: reread, to: content) { Issue.record("the written text of \(prefix) reads back otherwise: \(failure)") }
            if let failure = growthFailure(from: previousReread ?? reread, to: reread) { Issue.record("the written text of \(prefix) lost content: \(failure)") }
            previousReread = reread
            let partial: Value.PartiallyGenerated
            do {
                partial = try Value.PartiallyGenerated(content)
            } catch {
                Issue.record("\(prefix) does not convert: \(error)")
                return count
            }
            if let previous {
                if let failure = growthFailure(from: previous.content, to: content) { Issue.record("content at \(prefix): \(failure)") }
                if let failure = growthFailure(from: previous.partial, to: partial) { Issue.record("snapshot at \(prefix): \(failure)") }
            }
            previous = (content, partial)
            count += 1
        }
        #expect(fed == bytes.count)
        #expect(try Value(GeneratedContent(complete: parser.finish())).generatedContent == value.generatedContent)
        return count
    }
}

// Random values, with text that escapes, cuts characters of several bytes and ends in marks.

private let alphabet = ["a", "Z", " ", "\"", "\\", "\n", "\t", "/", "é", "e\u{301}", "한", "국", "😀", "\u{1}", "7", "{", "]"]

private func randomText(_ random: inout SeededGenerator, maximumLength: Int = 8) -> String {
    (0..<Int.random(in: 0...maximumLength, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }.joined()
}

private func randomNumber(_ random: inout SeededGenerator) -> Double {
    [0, -1, 3.5, 1e-7, 120, -0.25, 4096].randomElement(using: &random) ?? 0
}

private func randomKind(_ random: inout SeededGenerator) -> Kind {
    Kind.allCases.randomElement(using: &random) ?? .shopping
}

private func randomCourse(_ random: inout SeededGenerator) -> Course {
    Course.allCases.randomElement(using: &random) ?? .food
}

extension Shape {
    fileprivate static func random(_ random: inout SeededGenerator) -> Shape {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .circle(radius: randomNumber(&random))
        case 1: return .rectangle(width: randomNumber(&random), height: randomNumber(&random))
        case 2: return .label(randomText(&random))
        default: return .point
        }
    }
}

extension Entry {
    fileprivate static func random(_ random: inout SeededGenerator) -> Entry {
        Entry(
            kind: randomKind(&random), kinds: (0..<Int.random(in: 0...3, using: &random)).map { _ in randomKind(&random) },
            course: Bool.random(using: &random) ? randomCourse(&random) : nil, day: Int.random(in: -3...40, using: &random),
            price: randomNumber(&random), done: Bool.random(using: &random), note: Bool.random(using: &random) ? randomText(&random) : nil,
            tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in randomText(&random) })
    }
}

extension Journal {
    fileprivate static func random(_ random: inout SeededGenerator) -> Journal {
        Journal(
            title: randomText(&random, maximumLength: 12), entries: (0..<Int.random(in: 0...3, using: &random)).map { _ in Entry.random(&random) },
            mood: Bool.random(using: &random) ? randomCourse(&random) : nil,
            shapes: (0..<Int.random(in: 0...3, using: &random)).map { _ in Shape.random(&random) },
            lastShape: Bool.random(using: &random) ? Shape.random(&random) : nil,
            scores: (0..<Int.random(in: 0...3, using: &random)).map { _ in randomNumber(&random) },
            grid: (0..<Int.random(in: 0...2, using: &random)).map { _ in (0..<Int.random(in: 0...2, using: &random)).map { _ in randomKind(&random) } },
            comment: Bool.random(using: &random) ? Comment.random(&random, depth: 2) : nil)
    }
}

extension Comment {
    fileprivate static func random(_ random: inout SeededGenerator, depth: Int) -> Comment {
        Comment(
            author: randomText(&random), text: randomText(&random), likes: Int.random(in: 0...99, using: &random),
            replies: depth == 0 ? [] : (0..<Int.random(in: 0...2, using: &random)).map { _ in Comment.random(&random, depth: depth - 1) })
    }
}

extension Itinerary {
    fileprivate static func random(_ random: inout SeededGenerator) -> Itinerary {
        let days = (0..<3).map { _ in
            DayPlan(
                title: randomText(&random), subtitle: randomText(&random), destination: randomText(&random),
                activities: (0..<3).map { _ in Activity(type: randomKind(&random), title: randomText(&random), description: randomText(&random)) })
        }
        return Itinerary(
            title: randomText(&random), destinationName: ModelData.landmarkNames.randomElement(using: &random) ?? "Kyoto",
            description: randomText(&random), rationale: Bool.random(using: &random) ? randomText(&random) : nil, days: days)
    }
}
