import Foundation

/// llama.cpp's DRY ("don't repeat yourself") penalty over a vocabulary, as ``DRYSettings``
/// describe it: when the context ends with a run of tokens that also came earlier, the token that
/// followed the earlier run loses `multiplier * base^(length - allowedLength)` of its logit (the
/// longest such run counts).
///
/// A token that holds a sequence breaker is never part of a run. Tokens made only of digits,
/// JSON punctuation (`{ } [ ] , : "`), number signs and whitespace are never penalized: numbers
/// and the structure every array element repeats are not loops.
public struct DRYPenalty: Sendable {
    public let settings: DRYSettings
    /// Whether each token of the vocabulary holds a sequence breaker.
    private let breakers: [Bool]
    /// Whether each token is one DRY leaves alone (digits and JSON structure).
    private let exempt: [Bool]

    /// The penalty over a vocabulary of `tokens` (each token's bytes).
    public init(settings: DRYSettings, tokens: [[UInt8]]) {
        self.settings = settings
        let sequences = settings.sequenceBreakers.map { Array($0.utf8) }.filter { !$0.isEmpty }
        breakers = tokens.map { bytes in sequences.contains { bytes.count >= $0.count && Self.contains(bytes, $0) } }
        let structural = Set("0123456789{}[],:\" \n\r\t.-+".utf8)
        exempt = tokens.map { bytes in !bytes.isEmpty && bytes.allSatisfy(structural.contains) }
    }

    /// Lowers the logits of the tokens that would extend a repeat within `history` (the tokens of
    /// the context, oldest first).
    public func apply(to logits: UnsafeMutableBufferPointer<Float>, history: ArraySlice<Int32>) {
        let window = settings.window.map { history.suffix(max(0, $0)) } ?? history
        let allowed = max(1, settings.allowedLength)
        guard settings.multiplier != 0, window.count > allowed, let last = window.last, !isBreaker(last) else { return }
        // No run reaches back across a breaker.
        var limit = 0
        for token in window.reversed() {
            if isBreaker(token) { break }
            limit += 1
        }
        guard limit >= allowed else { return }
        let start = window.startIndex
        let end = window.endIndex - 1
        // The exponent stops where the penalty would overflow a float, as llama.cpp's does.
        let maximumExponent = settings.base > 1 ? Int(log(Float.greatestFiniteMagnitude) / log(settings.base)) : Int.max
        var penalties: [Int32: Float] = [:]
        for earlier in stride(from: end - 1, through: start, by: -1) where window[earlier] == last {
            var length = 1
            while length < limit, earlier - length >= start, window[earlier - length] == window[end - length] { length += 1 }
            guard length >= allowed else { continue }
            let next = window[earlier + 1]
            let penalty = settings.multiplier * pow(settings.base, Float(min(length - allowed, maximumExponent)))
            penalties[next] = max(penalties[next] ?? 0, penalty)
        }
        for (token, penalty) in penalties where token >= 0 && Int(token) < logits.count && !exempt[Int(token)] {
            logits[Int(token)] -= penalty
        }
    }

    private func isBreaker(_ token: Int32) -> Bool {
        token >= 0 && Int(token) < breakers.count ? breakers[Int(token)] : true
    }

    private static func contains(_ bytes: [UInt8], _ sequence: [UInt8]) -> Bool {
        guard sequence.count <= bytes.count else { return false }
        for start in 0...(bytes.count - sequence.count) where bytes[start..<(start + sequence.count)].elementsEqual(sequence) { return true }
        return false
    }
}
