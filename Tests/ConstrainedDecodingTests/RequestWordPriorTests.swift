import ConstrainedDecoding
import Testing

/// The prior towards the words of the request.
@Suite struct RequestWordPriorTests {
    @Test func subjectWordsLeaveOutShortAndRequestWords() {
        let words = RequestWordPrior.subjectWords(of: "Write an adoption profile for a playful Kitten, please.")
        #expect(words == ["adoption", "profile", "playful", "kitten"])
        #expect(RequestWordPrior.subjectWords(of: "Plan a trip to Zürich: Zürich in 2026!") == ["plan", "trip", "zürich", "2026"])
        #expect(RequestWordPrior.subjectWords(of: "Tell me what you want").isEmpty)
    }

    /// Word 0 ("kitten") begins with token 1 after a space and token 2 bare; word 1 ("garden")
    /// with tokens 3 and 4.
    static func prior() -> RequestWordPrior {
        RequestWordPrior(
            words: [
                .init(text: Array("kitten".utf8), spaced: [1], bare: [2]),
                .init(text: Array("garden".utf8), spaced: [3], bare: [4]),
            ], amount: 1.5)
    }

    static func raised(_ prior: inout RequestWordPrior, after text: String) -> [Float] {
        var logits = [Float](repeating: 0, count: 5)
        logits.withUnsafeMutableBufferPointer { prior.apply(to: $0, text: Array(text.utf8)) }
        return logits
    }

    @Test func bareSpellingsStartAStringAndFollowASpace() {
        var prior = Self.prior()
        #expect(Self.raised(&prior, after: "{\"a\":\"") == [0, 0, 1.5, 0, 1.5])
        #expect(Self.raised(&prior, after: "{\"a\":\"A ") == [0, 0, 1.5, 0, 1.5])
    }

    @Test func spacedSpellingsFollowAWordOrAMark() {
        var prior = Self.prior()
        #expect(Self.raised(&prior, after: "{\"a\":\"A") == [0, 1.5, 0, 1.5, 0])
        #expect(Self.raised(&prior, after: "{\"a\":\"A,") == [0, 1.5, 0, 1.5, 0])
    }

    @Test func aWordWrittenOnceIsLeftToTheModel() {
        var prior = Self.prior()
        #expect(Self.raised(&prior, after: "{\"a\":\"A Kitten") == [0, 0, 0, 1.5, 0])
        // It stays written when the text goes on.
        #expect(Self.raised(&prior, after: "{\"a\":\"A Kitten in the ") == [0, 0, 0, 0, 1.5])
        #expect(Self.raised(&prior, after: "{\"a\":\"A Kitten in the GARDEN ") == [0, 0, 0, 0, 0])
    }
}
