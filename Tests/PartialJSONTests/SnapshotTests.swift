import PartialJSON
import Testing

/// What snapshots show while a document is being written.
@Suite struct SnapshotTests {
    /// Feeds `chunks` one after the other and returns the snapshot after each, as compact JSON
    /// (open strings, arrays and objects closed), `nil` before anything has begun.
    func snapshots(_ chunks: [String]) throws -> [String?] {
        let parser = PartialJSONParser()
        return try chunks.map { chunk in
            try parser.feed(chunk)
            return parser.snapshot.value?.value.jsonString
        }
    }

    @Test func objectsShowMembersWhoseValuesHaveBegun() throws {
        #expect(try snapshots([#"{"ti"#, #"tle": "#, #""A st"#, #"ory of"#, #"", "n": 1"#, "2", "}"]) == [
            "{}", "{}", #"{"title":"A st"}"#, #"{"title":"A story of"}"#, #"{"title":"A story of"}"#,
            #"{"title":"A story of"}"#, #"{"title":"A story of","n":12}"#,
        ])
    }

    @Test func stringsNeverShowHalfAnEscapeOrHalfAUTF8Sequence() throws {
        let parser = PartialJSONParser()
        var seen: [String] = []
        for byte in Array(#""a\n\u00e9\ud83d\ude00é😀""#.utf8) {
            try parser.feed([byte])
            seen.append(parser.snapshot.root?.string ?? "-")
        }
        #expect(Array(Set(seen)).sorted { $0.utf8.count < $1.utf8.count } == ["", "a", "a\n", "a\né", "a\né😀", "a\né😀é", "a\né😀é😀"])
        #expect(parser.snapshot.isComplete)
    }

    @Test func numbersAndLiteralsAppearOnlyOnceComplete() throws {
        #expect(try snapshots(["[tr", "ue,", "-1", ".5e", "3,nu", "ll", "]"]) == [
            "[]", "[true]", "[true]", "[true]", "[true,-1.5e3]", "[true,-1.5e3,null]", "[true,-1.5e3,null]",
        ])
    }

    @Test func completenessIsMarkedOnEveryNode() throws {
        let parser = PartialJSONParser()
        try parser.feed(#"{"a": [1, {"b": "x"}, "y"#)
        let root = try #require(parser.snapshot.root)
        #expect(root.kind == .object && !root.isComplete)
        let array = try #require(root.members.first?.value)
        #expect(array.kind == .array && !array.isComplete)
        let elements = array.elements
        #expect(elements.map(\.isComplete) == [true, true, false])
        #expect(elements[1].members.first?.value.string == "x")
        #expect(elements[2].string == "y")
    }

    @Test func aSnapshotNeverChangesAfterwards() throws {
        let parser = PartialJSONParser()
        try parser.feed(#"{"list": ["one", "tw"#)
        let early = parser.snapshot
        let earlyValue = early.value
        try parser.feed(#"o", "three"], "more": {"x": 1}}"#)
        _ = try parser.finish()
        #expect(early.value == earlyValue)
        #expect(early.value?.value.jsonString == #"{"list":["one","tw"]}"#)
        #expect(earlyValue?.isExtended(by: try #require(parser.snapshot.value)) == true)
    }

    @Test func topLevelScalarsCompleteAtTheEnd() throws {
        let parser = PartialJSONParser()
        try parser.feed("12")
        #expect(parser.snapshot.root == nil)
        #expect(try parser.finish() == .number(12))
        #expect(parser.snapshot.root?.number == 12 && parser.snapshot.isComplete)
    }

    @Test func extensionIsStrict() throws {
        let open = PartialJSONValue(kind: .string("ab"), isComplete: false)
        #expect(open.isExtended(by: PartialJSONValue(kind: .string("abc"), isComplete: true)))
        #expect(!open.isExtended(by: PartialJSONValue(kind: .string("ac"), isComplete: false)))
        let closed = PartialJSONValue(kind: .string("ab"), isComplete: true)
        #expect(!closed.isExtended(by: PartialJSONValue(kind: .string("abc"), isComplete: true)))
        let array = PartialJSONValue(kind: .array([open]), isComplete: false)
        #expect(!array.isExtended(by: PartialJSONValue(kind: .array([]), isComplete: false)))
    }
}
