/// A byte-level BPE tokenizer (GPT-2 style) read from GGUF metadata, with the pre-tokenizer it
/// names (`smollm`, `gpt2`, `llama-bpe`, `qwen2`), special tokens, and the raw bytes of every token.
public final class BPETokenizer: Tokenizer {
    public let tokenBytes: [[UInt8]]
    /// The ids of control and user-defined tokens (`<|im_start|>` and the like).
    public let specialTokens: Set<Int32>
    public let beginningOfText: Int32?
    public let endOfText: Int32
    private let ids: [String: Int32]
    private let mergeRanks: [MergePair: Int32]
    private let splitter: SpecialTokenSplitter
    private let preTokenizer: PreTokenizer

    struct MergePair: Hashable {
        let left: Int32
        let right: Int32
    }

    public init(file: GGUFFile) throws {
        let model = try file.string("tokenizer.ggml.model")
        guard model == "gpt2" else { throw TokenizerError(description: "tokenizer.ggml.model '\(model)' is not supported (gpt2 is)") }
        let pre = (try? file.string("tokenizer.ggml.pre")) ?? "default"
        guard let preTokenizer = PreTokenizer(name: pre) else {
            throw TokenizerError(description: "tokenizer.ggml.pre '\(pre)' is not supported (\(PreTokenizer.names.joined(separator: ", ")) are)")
        }
        self.preTokenizer = preTokenizer
        let tokens = try file.strings("tokenizer.ggml.tokens")
        let types = (try? file.integers("tokenizer.ggml.token_type")) ?? Array(repeating: 1, count: tokens.count)
        guard types.count == tokens.count else { throw TokenizerError(description: "token types and tokens differ in number") }
        var ids: [String: Int32] = [:]
        var bytes: [[UInt8]] = []
        var special = Set<Int32>()
        for (index, token) in tokens.enumerated() {
            let id = Int32(index)
            if ids[token] == nil { ids[token] = id }
            if types[index] == TokenType.control || types[index] == TokenType.userDefined {
                special.insert(id)
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
        splitter = SpecialTokenSplitter(texts: tokens, types: types)
        endOfText = Int32(try file.integer("tokenizer.ggml.eos_token_id"))
        beginningOfText = (try? file.integer("tokenizer.ggml.bos_token_id")).map(Int32.init)
    }

    public func encode(_ text: String, parsingSpecialTokens: Bool) -> [Int32] {
        var result: [Int32] = []
        for fragment in splitter.split(text, parsingSpecialTokens: parsingSpecialTokens) {
            switch fragment {
            case .token(let id): result.append(id)
            case .text(let bytes): encodeOrdinary(String(decoding: bytes, as: UTF8.self), into: &result)
            }
        }
        return result
    }

    private func encodeOrdinary(_ text: String, into result: inout [Int32]) {
        for piece in preTokenizer.split(text) {
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
}
