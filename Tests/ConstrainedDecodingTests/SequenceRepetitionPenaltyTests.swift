import ConstrainedDecoding
import Testing

/// The penalty on tokens that would extend a repeated run.
@Suite struct SequenceRepetitionPenaltyTests {
    /// Tokens 0...9 are words; 10 holds a quote, a breaker.
    static let penalty = SequenceRepetitionPenalty(tokens: (0...9).map { [UInt8(ascii: "a") + UInt8($0)] } + [Array("\",".utf8)])

    static func penalties(after history: [Int32]) -> [Float] {
        var logits = [Float](repeating: 0, count: 11)
        logits.withUnsafeMutableBufferPointer { penalty.apply(to: $0, history: history[...]) }
        return logits.map { -$0 }
    }

    @Test func aRepeatOfTheAllowedLengthIsPenalizedOnce() {
        let penalties = Self.penalties(after: [1, 2, 3, 9, 1, 2])
        #expect(abs(penalties[3] - 0.8) < 1e-6)
        #expect(penalties.enumerated().allSatisfy { $0.offset == 3 || $0.element == 0 })
    }

    @Test func thePenaltyGrowsWithTheRepeat() {
        let penalties = Self.penalties(after: [1, 2, 3, 4, 1, 2, 3])
        #expect(abs(penalties[4] - 0.8 * 1.75) < 1e-5)
    }

    @Test func aShorterRepeatIsNotPenalized() {
        #expect(Self.penalties(after: [1, 2, 3, 1]).allSatisfy { $0 == 0 })
    }

    @Test func runsDoNotReachAcrossABreaker() {
        // "1 quote 2" came before; the run that ends now is only "2".
        #expect(Self.penalties(after: [1, 10, 2, 3, 1, 10, 2]).allSatisfy { $0 == 0 })
        // After a breaker nothing is penalized.
        #expect(Self.penalties(after: [1, 10, 1, 10]).allSatisfy { $0 == 0 })
    }
}
