/// A SentencePiece-style tokenizer (`tokenizer.ggml.model = llama`: Gemma, Llama 2, Mistral), as
/// llama.cpp runs it: spaces written `▁`, an optional space before the text
/// (`tokenizer.ggml.add_space_prefix`), then the adjacent pieces whose joined text is a token
/// merged highest score first (the leftmost on ties) until none can be, and the bytes of any
/// character that is no token written as byte tokens (`<0x0A>`).
public final class SentencePieceTokenizer: Tokenizer {
    public let tokenBytes: [[UInt8]]
    public let specialTokens: Set<Int32>
    public let beginningOfText: Int32?
    public let endOfText: Int32
    private let ids: [[UInt8]: Int32]
    private let scores: [Float]
    /// The byte tokens, by byte (`-1` where the vocabulary lacks one).
    private let byteTokens: [Int32]
    private let unknown: Int32
    private let addsSpacePrefix: Bool
    private let splitter: SpecialTokenSplitter

    /// The bytes of `▁` (U+2581), which stands for a space in token texts.
    private static let space: [UInt8] = [0xE2, 0x96, 0x81]

    public init(file: GGUFFile) throws {
        let model = try file.string("tokenizer.ggml.model")
        guard model == "llama" else { throw TokenizerError(description: "tokenizer.ggml.model '\(model)' is not SentencePiece (llama)") }
        let tokens = try file.strings("tokenizer.ggml.tokens")
        let types = (try? file.integers("tokenizer.ggml.token_type")) ?? Array(repeating: TokenType.normal, count: tokens.count)
        let scores = (try? file.numbers("tokenizer.ggml.scores").map(Float.init)) ?? Array(repeating: 0, count: tokens.count)
        guard types.count == tokens.count, scores.count == tokens.count else {
            throw TokenizerError(description: "tokenizer.ggml.token_type or tokenizer.ggml.scores differ in number from the tokens")
        }
        var ids: [[UInt8]: Int32] = [:]
        var bytes: [[UInt8]] = []
        var special = Set<Int32>()
        var byteTokens = [Int32](repeating: -1, count: 256)
        bytes.reserveCapacity(tokens.count)
        for (index, token) in tokens.enumerated() {
            let id = Int32(index)
            let text = Array(token.utf8)
            switch types[index] {
            case TokenType.byte:
                // `<0xNN>`
                let digits = token.dropFirst(3).dropLast()
                if token.hasPrefix("<0x"), token.hasSuffix(">"), let value = UInt8(digits, radix: 16) {
                    byteTokens[Int(value)] = id
                    bytes.append([value])
                } else {
                    bytes.append(text)
                }
            case TokenType.control, TokenType.unknown, TokenType.unused:
                special.insert(id)
                bytes.append(text)
            case TokenType.userDefined:
                bytes.append(text)
            default:
                bytes.append(Self.replacingSpaceMarks(text))
            }
            if ids[text] == nil { ids[text] = id }
        }
        self.ids = ids
        self.scores = scores
        self.byteTokens = byteTokens
        tokenBytes = bytes
        specialTokens = special
        splitter = SpecialTokenSplitter(texts: tokens, types: types)
        endOfText = Int32(try file.integer("tokenizer.ggml.eos_token_id"))
        beginningOfText = (try? file.integer("tokenizer.ggml.bos_token_id")).map(Int32.init)
        unknown = Int32((try? file.integer("tokenizer.ggml.unknown_token_id")) ?? 0)
        addsSpacePrefix = file.metadata["tokenizer.ggml.add_space_prefix"]?.bool ?? true
    }

    /// A token text with each `▁` turned back into a space.
    private static func replacingSpaceMarks(_ text: [UInt8]) -> [UInt8] {
        guard text.count >= 3 else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if index + 3 <= text.count, text[index] == space[0], text[index + 1] == space[1], text[index + 2] == space[2] {
                result.append(0x20)
                index += 3
            } else {
                result.append(text[index])
                index += 1
            }
        }
        return result
    }

    public func encode(_ text: String, parsingSpecialTokens: Bool) -> [Int32] {
        var result: [Int32] = []
        for (index, fragment) in splitter.split(text, parsingSpecialTokens: parsingSpecialTokens).enumerated() {
            switch fragment {
            case .token(let id): result.append(id)
            case .text(let bytes): encodeOrdinary(bytes, prefixingSpace: addsSpacePrefix && index == 0, into: &result)
            }
        }
        return result
    }

    /// A piece of the text being merged: a run of its bytes, linked to its neighbours.
    private struct Symbol {
        var start: Int
        var length: Int
        var previous: Int
        var next: Int
    }

    /// Two adjacent symbols whose joined text is a token, with its score.
    private struct Bigram: Comparable {
        let score: Float
        let left: Int
        let right: Int
        let length: Int

        /// Higher scores first, then the leftmost.
        static func < (a: Bigram, b: Bigram) -> Bool {
            a.score != b.score ? a.score < b.score : a.left > b.left
        }
    }

    private func encodeOrdinary(_ input: ArraySlice<UInt8>, prefixingSpace: Bool, into result: inout [Int32]) {
        var text: [UInt8] = []
        text.reserveCapacity(input.count + 8)
        if prefixingSpace { text += Self.space }
        for byte in input {
            if byte == 0x20 { text += Self.space } else { text.append(byte) }
        }
        // One symbol per UTF-8 character.
        var symbols: [Symbol] = []
        var index = 0
        while index < text.count {
            let lead = text[index]
            let length = min(text.count - index, lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1)
            symbols.append(Symbol(start: index, length: length, previous: symbols.count - 1, next: symbols.count + 1))
            index += length
        }
        guard !symbols.isEmpty else { return }
        symbols[symbols.count - 1].next = -1
        var queue = PriorityQueue<Bigram>()
        func tryAdding(_ left: Int, _ right: Int) {
            guard left >= 0, right >= 0 else { return }
            let start = symbols[left].start
            let length = symbols[left].length + symbols[right].length
            guard let id = ids[Array(text[start..<start + length])] else { return }
            queue.push(Bigram(score: scores[Int(id)], left: left, right: right, length: length))
        }
        for index in 1..<symbols.count { tryAdding(index - 1, index) }
        while let bigram = queue.pop() {
            let left = symbols[bigram.left]
            let right = symbols[bigram.right]
            // Stale: one side was merged into another since.
            guard left.length > 0, right.length > 0, left.length + right.length == bigram.length, left.next == bigram.right else { continue }
            symbols[bigram.left].length = bigram.length
            symbols[bigram.left].next = right.next
            symbols[bigram.right].length = 0
            if right.next >= 0 { symbols[right.next].previous = bigram.left }
            tryAdding(left.previous, bigram.left)
            tryAdding(bigram.left, right.next)
        }
        var current = 0
        while current >= 0 {
            let symbol = symbols[current]
            let piece = Array(text[symbol.start..<symbol.start + symbol.length])
            if let id = ids[piece] {
                result.append(id)
            } else {
                for byte in piece { result.append(byteTokens[Int(byte)] >= 0 ? byteTokens[Int(byte)] : unknown) }
            }
            current = symbol.next
        }
    }
}
