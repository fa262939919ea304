/// Finds the texts of special tokens in a text, as llama.cpp partitions it before tokenizing:
/// user-defined tokens always, control tokens only when asked (as in a rendered chat template);
/// the longest match wins at each position. The text between matches is tokenized as ordinary
/// text.
struct SpecialTokenSplitter: Sendable {
    /// A run of ordinary text (its UTF-8 bytes), or a token found by its text.
    enum Fragment {
        case text(ArraySlice<UInt8>)
        case token(Int32)
    }

    /// Token texts by their first byte, longest first, with whether they are matched only when
    /// parsing special tokens.
    private let texts: [[(bytes: [UInt8], id: Int32, onlyWhenParsing: Bool)]]

    /// A splitter for the tokens of `types` (llama.cpp's token types) whose `texts` are given.
    init(texts: [String], types: [Int]) {
        var entries: [(bytes: [UInt8], id: Int32, onlyWhenParsing: Bool)] = []
        for (index, text) in texts.enumerated() where !text.isEmpty {
            let type = index < types.count ? types[index] : TokenType.normal
            guard type == TokenType.control || type == TokenType.userDefined else { continue }
            entries.append((Array(text.utf8), Int32(index), type == TokenType.control))
        }
        var texts = [[(bytes: [UInt8], id: Int32, onlyWhenParsing: Bool)]](repeating: [], count: 256)
        for entry in entries.sorted(by: { $0.bytes.count > $1.bytes.count }) { texts[Int(entry.bytes[0])].append(entry) }
        self.texts = texts
    }

    /// The fragments of `text`, in order.
    func split(_ text: String, parsingSpecialTokens: Bool) -> [Fragment] {
        let utf8 = Array(text.utf8)
        var fragments: [Fragment] = []
        var ordinaryStart = 0
        var position = 0
        while position < utf8.count {
            if let match = texts[Int(utf8[position])].first(where: { entry in
                (parsingSpecialTokens || !entry.onlyWhenParsing) && utf8[position...].starts(with: entry.bytes)
            }) {
                if ordinaryStart < position { fragments.append(.text(utf8[ordinaryStart..<position])) }
                fragments.append(.token(match.id))
                position += match.bytes.count
                ordinaryStart = position
            } else {
                position += 1
            }
        }
        if ordinaryStart < utf8.count { fragments.append(.text(utf8[ordinaryStart...])) }
        return fragments
    }
}
