import Foundation

/// Makes less likely the tokens that would extend a repeat of an earlier run of tokens, more so
/// the longer the run (the "don't repeat yourself" penalty of llama.cpp's and koboldcpp's DRY
/// samplers).
///
/// When the text so far ends with a run of `length` tokens that also appears earlier, the token
/// that followed the earlier run would make the repeat one longer: its logit goes down by
/// `multiplier * base^(length - allowedLength)` once `length` reaches `allowedLength`. Runs do
/// not reach across a breaker token (one holding a newline, a quote, a colon or an asterisk), so
/// in JSON the penalty works inside strings and does not count the structure every element
/// repeats.
public struct SequenceRepetitionPenalty: Sendable {
    /// The penalty of a repeat of `allowedLength` tokens.
    public var multiplier: Float
    /// How fast the penalty grows with each further token of the repeat.
    public var base: Float
    /// The shortest repeat that is penalized.
    public var allowedLength: Int
    /// Repeats longer than this count as this long (the penalty stops growing).
    public var maximumLength: Int
    /// Whether each token of the vocabulary ends runs.
    private let breakers: [Bool]

    /// A penalty over a vocabulary of `tokens` (each token's bytes).
    public init(tokens: [[UInt8]], multiplier: Float = 0.8, base: Float = 1.75, allowedLength: Int = 2, maximumLength: Int = 12) {
        self.multiplier = multiplier
        self.base = base
        self.allowedLength = allowedLength
        self.maximumLength = maximumLength
        breakers = tokens.map { bytes in bytes.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "*") } }
    }

    /// Lowers the logits of the tokens that would extend a repeat within `history` (the tokens
    /// written so far, oldest first).
    public func apply(to logits: UnsafeMutableBufferPointer<Float>, history: ArraySlice<Int32>) {
        var applied: [Int: Float] = [:]
        guard let last = history.last, !isBreaker(last), multiplier > 0 else { return }
        let first = history.startIndex
        let end = history.endIndex - 1
        // Each earlier occurrence of the last token ends a run; the longest one that matches the
        // end of the history penalizes the token that followed it.
        for earlier in stride(from: end - 1, through: first, by: -1) where history[earlier] == last {
            var length = 1
            while length < maximumLength, earlier - length >= first, history[earlier - length] == history[end - length],
                !isBreaker(history[end - length])
            {
                length += 1
            }
            guard length >= allowedLength else { continue }
            let next = Int(history[earlier + 1])
            guard next < logits.count else { continue }
            // A later (nearer) run may already have penalized the same token: the longest counts.
            let penalty = multiplier * pow(base, Float(length - allowedLength))
            if penalty > applied[next, default: 0] {
                logits[next] -= penalty - applied[next, default: 0]
                applied[next] = penalty
            }
        }
    }

    private func isBreaker(_ token: Int32) -> Bool {
        Int(token) < breakers.count && token >= 0 ? breakers[Int(token)] : true
    }
}
