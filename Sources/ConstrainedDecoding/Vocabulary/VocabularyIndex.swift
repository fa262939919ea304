import Foundation
import Synchronization

/// The tables a vocabulary's masks are computed from: token tries and the plain-text tokens by
/// length. A class, so that a matcher reads them without copying a vocabulary's many arrays.
final class VocabularyIndex: Sendable {
    let trie: TokenTrie
    /// A trie of the tokens that are not plain text, walked in free-text states instead of the
    /// whole vocabulary.
    let otherTokensTrie: TokenTrie
    /// The same tokens by their rest (``rest(of:)``): from a state that every plain-text character
    /// leads back to, a token is allowed exactly when its rest is, so a walk reads each rest once
    /// for every token that ends with it (a quarter of the nodes, on a 150k vocabulary).
    let otherTokenRests: TokenTrie
    /// Plain-text tokens (``isPlainText(_:)``: whole UTF-8 characters that need no escape in a JSON
    /// string) of at least `n` characters, for `n` from 0 to one past the longest (which is empty).
    let plainTextTokensOfLengthAtLeast: [TokenBitset]
    /// The tokens with a quote or a backslash: those that may end a JSON string, or spell a
    /// character with an escape.
    let quoteOrEscapeTokens: [Int32]
    /// The tokens with a quote, as a set and as a trie: inside a `pattern` or `format` string,
    /// they are the ones that depend on what follows the string (``LazyDFA/stringInterior(_:)``).
    let quoteTokens: TokenBitset
    let quoteTokensTrie: TokenTrie
    /// The tokens with a quote by their rest, as ``otherTokenRests``.
    let quoteTokenRests: TokenTrie
    /// How many token ids there are.
    private let tokenCount: Int
    /// Per byte asked for: the tokens that hold it (``tokens(holding:)``).
    private let tokensByByte = Mutex<[UInt8: TokenBitset]>([:])

    init(tokens: [[UInt8]], excluded: Set<Int32>) {
        tokenCount = tokens.count
        trie = TokenTrie(tokens: tokens) { !excluded.contains(Int32($0)) }
        quoteOrEscapeTokens = tokens.indices.compactMap { id in
            excluded.contains(Int32(id)) || !tokens[id].contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) ? nil : Int32(id)
        }
        var quoted = TokenBitset(capacity: tokens.count)
        for (id, token) in tokens.enumerated() where !excluded.contains(Int32(id)) && token.contains(UInt8(ascii: "\"")) {
            quoted.insert(Int32(id))
        }
        quoteTokens = quoted
        quoteTokensTrie = TokenTrie(tokens: tokens) { quoted.contains(Int32($0)) }
        var plain = TokenBitset(capacity: tokens.count)
        for (id, token) in tokens.enumerated() where !excluded.contains(Int32(id)) && Self.isPlainText(token) {
            plain.insert(Int32(id))
        }
        let isOther = { (id: Int) in !excluded.contains(Int32(id)) && !plain.contains(Int32(id)) }
        otherTokensTrie = TokenTrie(tokens: tokens, include: isOther)
        // The tokens with a quote are among the others; a plain-text token has no rest.
        let rests = tokens.indices.map { isOther($0) ? Self.rest(of: tokens[$0]) : [] }
        otherTokenRests = TokenTrie(tokens: rests, include: isOther)
        quoteTokenRests = TokenTrie(tokens: rests) { quoted.contains(Int32($0)) }
        var atLeast: [TokenBitset] = [plain]
        for id in plain.ids {
            let length = String(decoding: tokens[Int(id)], as: UTF8.self).unicodeScalars.count
            while atLeast.count <= length + 1 { atLeast.append(TokenBitset(capacity: tokens.count)) }
            atLeast[length].insert(id)
        }
        for length in stride(from: atLeast.count - 2, through: 1, by: -1) {
            atLeast[length].formUnion(atLeast[length + 1])
        }
        plainTextTokensOfLengthAtLeast = atLeast
    }

    /// Sets `mask` to the plain-text tokens of 1 to `length` characters (all of them when
    /// `length` reaches the longest).
    func setPlainTextTokens(upTo length: Int, in mask: inout TokenBitset) {
        guard length > 0 else {
            // Structural states: clearing writes the words once, a difference reads two sets too.
            mask.removeAll()
            return
        }
        let longest = plainTextTokensOfLengthAtLeast.count - 1
        mask.assign(plainTextTokensOfLengthAtLeast[min(length, 1)], subtracting: plainTextTokensOfLengthAtLeast[min(length + 1, longest)])
    }

    /// The tokens of ``trie`` that hold `byte`, found on the first request for it and kept: for
    /// states that read any plain text but a few characters (``LazyDFA/plainTextRefusals(_:)``).
    /// One pass over the trie's nodes (`memchr` finds the next that reads `byte`) takes the
    /// subtree of each node that reads `byte` whole.
    func tokens(holding byte: UInt8) -> TokenBitset {
        tokensByByte.withLock { found in
            if let tokens = found[byte] { return tokens }
            var holding = TokenBitset(capacity: tokenCount)
            trie.withTables { trie in
                guard let bytes = trie.bytes.baseAddress else { return }
                holding.withWords { words in
                    var node = 0
                    while node < trie.bytes.count {
                        guard let match = memchr(bytes + node, Int32(byte), trie.bytes.count - node) else { break }
                        node = bytes.distance(to: match.assumingMemoryBound(to: UInt8.self))
                        let end = Int(trie.subtreeEnds[node])
                        for position in Int(trie.tokenStarts[node])..<Int(trie.tokenStarts[end]) {
                            let id = trie.tokenIDs[position]
                            words[Int(id) >> 6] |= 1 << UInt64(id & 63)
                        }
                        node = end
                    }
                }
            }
            found[byte] = holding
            return holding
        }
    }

    /// The length in characters of the longest plain-text token: a chain of states that allows
    /// this many characters allows every plain-text token.
    var longestPlainText: Int { max(plainTextTokensOfLengthAtLeast.count - 2, 0) }

    /// Whether `bytes` are whole UTF-8 characters of plain text: none a control character, `"`,
    /// `\`, or out of ``plainTextBeyondASCII``.
    static func isPlainText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else { return false }
        return text.unicodeScalars.allSatisfy(isPlainText)
    }

    /// Whether `scalar` is a character of plain text (see ``isPlainText(_:)``).
    static func isPlainText(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            ? scalar.value >= 0x20 && scalar != "\"" && scalar != "\\"
            : plainTextBeyondASCII.contains { $0.contains(scalar.value) }
    }

    /// The bytes of `token` from its first byte that does not start a whole plain-text character
    /// (a quote, a backslash, a control character, or a character cut short): empty for a
    /// plain-text token. What comes before it reads as plain text.
    static func rest(of token: [UInt8]) -> [UInt8] {
        var start = 0
        while start < token.count {
            let lead = token[start]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard start + length <= token.count, let character = String(validating: token[start..<(start + length)], as: UTF8.self),
                let scalar = character.unicodeScalars.first, isPlainText(scalar)
            else { break }
            start += length
        }
        return Array(token[start...])
    }

    /// The characters beyond ASCII that count as plain text: all but U+2028 and U+2029, the line
    /// and paragraph separators that a pattern's `.` refuses. With them left out, a `.` loops on
    /// every plain-text character, and tokens that hold them (few) are read byte by byte.
    static let plainTextBeyondASCII: [ClosedRange<UInt32>] = [0x80...0x2027, 0x202A...0xD7FF, 0xE000...0x10FFFF]
}
