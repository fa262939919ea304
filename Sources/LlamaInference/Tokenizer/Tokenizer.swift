/// A model's tokenizer, read from its GGUF metadata (`tokenizer.ggml.*`): text to token ids and
/// back, with the raw bytes of every token for the constrained decoder.
public protocol Tokenizer: Sendable {
    /// The raw bytes of each token, by id.
    var tokenBytes: [[UInt8]] { get }
    /// The ids of the tokens that are not text (control tokens such as `<|im_start|>` or
    /// `<start_of_turn>`): they appear only where a template writes them.
    var specialTokens: Set<Int32> { get }
    var beginningOfText: Int32? { get }
    var endOfText: Int32 { get }
    /// The tokens of `text`. With `parsingSpecialTokens`, the texts of special tokens (as in a
    /// chat template) become those tokens; otherwise they are ordinary text.
    func encode(_ text: String, parsingSpecialTokens: Bool) -> [Int32]
}

extension Tokenizer {
    /// The number of tokens.
    public var count: Int { tokenBytes.count }

    /// The tokens of `text`, special tokens' texts read as ordinary text.
    public func encode(_ text: String) -> [Int32] {
        encode(text, parsingSpecialTokens: false)
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

/// Why a tokenizer cannot be built from a file's metadata.
public struct TokenizerError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// The tokenizer a GGUF file describes, by its `tokenizer.ggml.model`: `gpt2` (byte-level BPE)
/// or `llama` (SentencePiece).
public func makeTokenizer(file: GGUFFile) throws -> any Tokenizer {
    let model = try file.string("tokenizer.ggml.model")
    switch model {
    case "gpt2": return try BPETokenizer(file: file)
    case "llama": return try SentencePieceTokenizer(file: file)
    default: throw TokenizerError(description: "tokenizer.ggml.model '\(model)' is not supported (gpt2 and llama are)")
    }
}

/// The token types of `tokenizer.ggml.token_type`, as llama.cpp numbers them.
enum TokenType {
    static let normal = 1, unknown = 2, control = 3, userDefined = 4, unused = 5, byte = 6
}
