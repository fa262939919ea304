/// Keeps a small model's values on the subject of the request: where a word starts inside a
/// string value, the tokens that begin one of the request's words not yet written in the answer
/// have their logits raised by a fixed amount. Once a word is in the answer it is left to the
/// model, so the prior asks for the subject to be named, not repeated. Nothing the grammar allows
/// is ruled out, and a token the model does not consider stays unlikely.
public struct RequestWordPrior: Sendable {
    /// One word of the request.
    public struct Word: Sendable, Equatable {
        /// The word in lowercase ASCII (other bytes as they are).
        public var text: [UInt8]
        /// The first tokens of the word written after a space (` kitten`, ` Kitten`).
        public var spaced: [Int32]
        /// The first tokens of the word written at the start of a string or after a space
        /// (`kitten`, `Kitten`).
        public var bare: [Int32]

        public init(text: [UInt8], spaced: [Int32], bare: [Int32]) {
            self.text = text
            self.spaced = spaced
            self.bare = bare
        }
    }

    /// How much higher the logits go.
    public var amount: Float
    /// The request's words, in the order they came.
    public private(set) var words: [Word]
    /// Whether each word has been written in the answer.
    private var written: [Bool]
    /// How many bytes of the answer have been searched for the words.
    private var searched = 0

    public init(words: [Word], amount: Float = 1) {
        self.words = words
        self.amount = amount
        written = Array(repeating: false, count: words.count)
    }

    /// The words of `request` that name its subject, in lowercase, each once: runs of at least
    /// ``shortestWord`` letters, digits or non-ASCII bytes, less the words that shape a request
    /// rather than name its subject (``requestWords``).
    public static func subjectWords(of request: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        func flush() {
            defer { current.removeAll() }
            guard current.count >= shortestWord else { return }
            let word = String(decoding: current, as: UTF8.self)
            if !requestWords.contains(word), !words.contains(word) { words.append(word) }
        }
        for byte in request.utf8 {
            if isWordByte(byte) {
                current.append(lowercased(byte))
            } else {
                flush()
            }
        }
        flush()
        return words
    }

    /// The fewest bytes a subject word has: shorter words are mostly articles and prepositions.
    public static let shortestWord = 4

    /// English words of four letters or more that ask, point or join rather than name a subject.
    public static let requestWords: Set<String> = [
        "about", "also", "answer", "been", "could", "create", "describe", "does", "each", "find", "from", "give", "have", "into",
        "just", "like", "list", "look", "make", "many", "more", "most", "much", "need", "needed", "only", "other", "please", "show",
        "some", "suggest", "tell", "than", "that", "their", "them", "then", "there", "these", "they", "this", "those", "very", "want",
        "what", "when", "where", "which", "while", "will", "with", "would", "write", "your",
    ]

    /// Raises the logits of the tokens that begin an unwritten word, when the answer so far
    /// (`text`, inside a string value) ends where a word may start: after a quote or a space the
    /// bare spellings, after anything else the spaced ones. `text` only grows from one call to
    /// the next (a text cut short takes a new prior); only what it gained is searched for words.
    public mutating func apply(to logits: UnsafeMutableBufferPointer<Float>, text: [UInt8]) {
        guard let last = text.last, !words.isEmpty, amount != 0 else { return }
        markWritten(in: text)
        let atWordStart = last == UInt8(ascii: " ") || last == UInt8(ascii: "\"")
        for index in words.indices where !written[index] {
            for token in atWordStart ? words[index].bare : words[index].spaced where Int(token) < logits.count {
                logits[Int(token)] += amount
            }
        }
    }

    /// Marks the words that the bytes of `text` after the ones searched before complete.
    private mutating func markWritten(in text: [UInt8]) {
        for index in words.indices where !written[index] {
            let word = words[index].text
            // A word may have begun in the part searched before.
            let from = max(0, searched - word.count + 1)
            if Self.contains(text[from...], word) { written[index] = true }
        }
        searched = text.count
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        let letter = lowercased(byte)
        return byte >= 0x80 || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// Whether `text` holds `word`, ASCII letters compared without case.
    private static func contains(_ text: ArraySlice<UInt8>, _ word: [UInt8]) -> Bool {
        guard let first = word.first else { return true }
        var start = text.startIndex
        while start != text.endIndex {
            if lowercased(text[start]) == first {
                var position = start
                var matched = 0
                while matched < word.count, position != text.endIndex, lowercased(text[position]) == word[matched] {
                    matched += 1
                    position = text.index(after: position)
                }
                if matched == word.count { return true }
            }
            start = text.index(after: start)
        }
        return false
    }
}
