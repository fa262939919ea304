/// Nudges the JSON a small model writes towards text for people, away from what it writes when it
/// imitates the code and pages around a value: tokens whose text (up to a closing quote) holds
/// one of `_ | { } [ ] < >` or `//` (tags, addresses), a capital letter straight after a
/// lowercase one (`workoutPlan`), a value closed as soon as it is opened (`[]`, `""`), and a word
/// that goes on past the length of words (`visitfamouslandmarks...`, the way a small model's
/// forced element runs to the budget). The penalty is a fixed amount off the logit, so a token the
/// model is sure of still comes through, and nothing the schema allows is ruled out.
public struct MarkupPenalty: Sendable {
    /// How much lower the logits go.
    public var amount: Float
    /// Tokens that hold markup.
    private let markup: [Int32]
    /// Tokens that start with a capital letter.
    private let capitalized: [Int32]
    /// Tokens that go on with the word before them: their first byte is not a space or a quote.
    private let continuing: [Int32]
    /// Tokens that start with `]`, and with `"`.
    private let closers: (array: [Int32], string: [Int32])

    /// A penalty over a vocabulary of `tokens` (each token's bytes).
    public init(tokens: [[UInt8]], amount: Float = 4) {
        self.amount = amount
        let marks = Set("_|{}[]<>".utf8)
        var markup: [Int32] = []
        var capitalized: [Int32] = []
        var continuing: [Int32] = []
        var closers: (array: [Int32], string: [Int32]) = ([], [])
        for (id, bytes) in tokens.enumerated() {
            if bytes.first == UInt8(ascii: "]") { closers.array.append(Int32(id)) }
            if bytes.first == UInt8(ascii: "\"") { closers.string.append(Int32(id)) }
            let text = bytes.prefix { $0 != UInt8(ascii: "\"") }
            if text.contains(where: marks.contains) || text.contains("//".utf8) { markup.append(Int32(id)) }
            if let first = bytes.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\"") { continuing.append(Int32(id)) }
            if let first = bytes.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") { capitalized.append(Int32(id)) }
        }
        self.markup = markup
        self.capitalized = capitalized
        self.continuing = continuing
        self.closers = closers
    }

    /// Lowers the logits of the tokens that would close an array just opened (the text so far
    /// ends with its `[`).
    public func applyAtArrayStart(to logits: UnsafeMutableBufferPointer<Float>) {
        lower(closers.array, in: logits)
    }

    /// Raises the logits of the tokens that would close an array just opened.
    public func applyToNestedArrayStart(to logits: UnsafeMutableBufferPointer<Float>) {
        for token in closers.array where Int(token) < logits.count { logits[Int(token)] += amount }
    }

    /// Lowers the logits of markup tokens inside a string value, of capitalized ones when the
    /// text so far ends with the lowercase letter `previous`, and of those that close the string
    /// when it was just opened (`previous` is its quote), and of those that make the word it ends
    /// with (`wordLength` bytes without a space) longer than ``longestWord``, more for each byte
    /// beyond.
    public func applyInString(to logits: UnsafeMutableBufferPointer<Float>, after previous: UInt8, wordLength: Int = 0) {
        lower(markup, in: logits)
        if wordLength >= Self.longestWord {
            let excess = Float(wordLength - Self.longestWord + 1)
            for token in continuing where Int(token) < logits.count { logits[Int(token)] -= amount * excess / 4 }
        }
        if previous >= UInt8(ascii: "a"), previous <= UInt8(ascii: "z") { lower(capitalized, in: logits) }
        if previous == UInt8(ascii: "\"") { lower(closers.string, in: logits) }
    }

    /// The length in bytes past which a word is taken for a run of words without spaces.
    public static let longestWord = 20

    private func lower(_ tokens: [Int32], in logits: UnsafeMutableBufferPointer<Float>) {
        for token in tokens where Int(token) < logits.count { logits[Int(token)] -= amount }
    }
}
