/// A byte-level BPE tokenizer (GPT-2 style) read from GGUF metadata, with the `smollm`
/// pre-tokenizer, special tokens, and the raw bytes of every token.
public final class BPETokenizer: Sendable {
    /// The raw bytes of each token, by id.
    public let tokenBytes: [[UInt8]]
    /// The ids of control and user-defined tokens (`<|im_start|>` and the like).
    public let specialTokens: Set<Int32>
    public let beginningOfText: Int32?
    public let endOfText: Int32
    private let ids: [String: Int32]
    private let mergeRanks: [MergePair: Int32]
    /// Special tokens by their text, longest first, for recognizing them in templates.
    private let specialTexts: [(bytes: [UInt8], id: Int32)]

    struct MergePair: Hashable {
        let left: Int32
        let right: Int32
    }

    /// Why a tokenizer cannot be built from the metadata.
    public struct TokenizerError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(file: GGUFFile) throws {
        let model = try file.string("tokenizer.ggml.model")
        guard model == "gpt2" else { throw TokenizerError(description: "tokenizer.ggml.model '\(model)' is not supported (gpt2 is)") }
        let pre = (try? file.string("tokenizer.ggml.pre")) ?? "default"
        guard ["smollm", "default", "gpt2"].contains(pre) else {
            throw TokenizerError(description: "tokenizer.ggml.pre '\(pre)' is not supported (smollm is)")
        }
        let tokens = try file.strings("tokenizer.ggml.tokens")
        let types = (try? file.integers("tokenizer.ggml.token_type")) ?? Array(repeating: 1, count: tokens.count)
        guard types.count == tokens.count else { throw TokenizerError(description: "token types and tokens differ in number") }
        var ids: [String: Int32] = [:]
        var bytes: [[UInt8]] = []
        var special = Set<Int32>()
        var specialTexts: [([UInt8], Int32)] = []
        for (index, token) in tokens.enumerated() {
            let id = Int32(index)
            if ids[token] == nil { ids[token] = id }
            if types[index] == 3 || types[index] == 4 {
                special.insert(id)
                if !token.isEmpty { specialTexts.append((Array(token.utf8), id)) }
                bytes.append(Array(token.utf8))
            } else {
                bytes.append(ByteLevelAlphabet.bytes(of: token) ?? Array(token.utf8))
            }
        }
        var ranks: [MergePair: Int32] = [:]
        for (rank, merge) in try file.strings("tokenizer.ggml.merges").enumerated() {
            let parts = merge.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let left = ids[String(parts[0])], let right = ids[String(parts[1])] else { continue }
            let pair = MergePair(left: left, right: right)
            if ranks[pair] == nil { ranks[pair] = Int32(rank) }
        }
        self.ids = ids
        tokenBytes = bytes
        specialTokens = special
        mergeRanks = ranks
        self.specialTexts = specialTexts.sorted { $0.0.count > $1.0.count }
        endOfText = Int32(try file.integer("tokenizer.ggml.eos_token_id"))
        beginningOfText = (try? file.integer("tokenizer.ggml.bos_token_id")).map(Int32.init)
    }

    /// The number of tokens.
    public var count: Int { tokenBytes.count }

    /// The tokens of `text`. With `parsingSpecialTokens`, the texts of special tokens (as in a
    /// chat template) become those tokens; otherwise they are ordinary text.
    public func encode(_ text: String, parsingSpecialTokens: Bool = false) -> [Int32] {
        var result: [Int32] = []
        guard parsingSpecialTokens, !specialTexts.isEmpty else {
            encodeOrdinary(text, into: &result)
            return result
        }
        let utf8 = Array(text.utf8)
        var ordinaryStart = 0
        var position = 0
        while position < utf8.count {
            if let match = specialTexts.first(where: { special in
                special.bytes.first == utf8[position] && utf8[position...].starts(with: special.bytes)
            }) {
                encodeOrdinary(String(decoding: utf8[ordinaryStart..<position], as: UTF8.self), into: &result)
                result.append(match.id)
                position += match.bytes.count
                ordinaryStart = position
            } else {
                position += 1
            }
        }
        encodeOrdinary(String(decoding: utf8[ordinaryStart...], as: UTF8.self), into: &result)
        return result
    }

    private func encodeOrdinary(_ text: String, into result: inout [Int32]) {
        for piece in PreTokenizer.split(text) {
            var symbols: [Int32] = []
            for byte in String(piece).utf8 {
                let character = String(ByteLevelAlphabet.characterOfByte[Int(byte)])
                guard let id = ids[character] else { continue }
                symbols.append(id)
            }
            merge(&symbols)
            result += symbols
        }
    }

    /// Applies the merges, lowest rank first (the leftmost pair on ties), until none applies.
    private func merge(_ symbols: inout [Int32]) {
        while symbols.count > 1 {
            var best: (rank: Int32, index: Int)?
            for index in 0..<symbols.count - 1 {
                if let rank = mergeRanks[MergePair(left: symbols[index], right: symbols[index + 1])], rank < (best?.rank ?? .max) {
                    best = (rank, index)
                }
            }
            guard let (_, index) = best else { return }
            let merged = tokenBytes[Int(symbols[index])] + tokenBytes[Int(symbols[index + 1])]
            guard let id = ids[String(String.UnicodeScalarView(merged.map { ByteLevelAlphabet.characterOfByte[Int($0)] }))] else { return }
            symbols[index] = id
            symbols.remove(at: index + 1)
        }
    }

    /// The bytes of `tokens`, concatenated.
    public func bytes(of tokens: [Int32]) -> [UInt8] {
        tokens.flatMap { $0 >= 0 && Int($0) < tokenBytes.count ? tokenBytes[Int($0)] : [] }
    }

    /// The text of `tokens` (invalid UTF-8 repaired).
    public func decode(_ tokens: [Int32]) -> String {
        String(decoding: bytes(of: tokens), as: UTF8.self)
    }
}
