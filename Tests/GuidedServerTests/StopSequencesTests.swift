@testable import GuidedServer
import Testing

/// Stop sequences over a growing text: the first one found ends the text, and a stream holds
/// back only what could begin one, on a character boundary.
@Suite struct StopSequencesTests {
    @Test func theEarliestSequenceEndsTheText() {
        var stops = StopSequences(["END", "ab"])
        #expect(stops.cut("xx") == nil)
        #expect(stops.cut("xx a") == nil)
        // The sequence that began in the text seen before is found when it completes.
        #expect(stops.cut("xx ab END") == "xx ")
        var none = StopSequences([])
        #expect(none.cut("END") == nil)
    }

    @Test func aStreamHoldsBackWhatCouldBeginASequence() {
        let stops = StopSequences(["END"])
        #expect(stops.settled("hello") == "hel")
        #expect(stops.settled("EN") == "")
        // One byte held back would split "é" (two bytes): the whole character waits.
        #expect(StopSequences(["EN"]).settled("caf\u{E9}") == "caf")
        #expect(StopSequences([]).settled("caf\u{E9}") == "caf\u{E9}")
    }
}
