/// Splits text into the pieces that byte-level BPE encodes separately, as the pre-tokenizer a GGUF
/// file names (`tokenizer.ggml.pre`) does:
/// - `smollm`: every numeric character on its own, then GPT-2's pattern;
/// - `gpt2`: GPT-2's pattern `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`;
/// - `llama-bpe` (Llama 3) and `qwen2`: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
///   ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`, Qwen's with single digits.
/// The patterns are matched by hand, alternative by alternative as a regex engine tries them.
enum PreTokenizer: Sendable {
    case smollm
    case gpt2
    /// Llama 3's pattern, with runs of at most `digits` digits (3; Qwen 2's 1).
    case llama3(digits: Int)

    /// The pre-tokenizer a `tokenizer.ggml.pre` value names, or `nil`.
    init?(name: String) {
        switch name {
        case "smollm", "default": self = .smollm
        case "gpt2": self = .gpt2
        case "llama-bpe", "llama3": self = .llama3(digits: 3)
        case "qwen2": self = .llama3(digits: 1)
        default: return nil
        }
    }

    /// The names `init(name:)` knows.
    static let names = ["smollm", "default", "gpt2", "llama-bpe", "llama3", "qwen2"]

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    private static func isNumber(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    /// The pieces of `text`, in order; together they are `text`.
    func split(_ text: String) -> [Substring.UnicodeScalarView] {
        var pieces: [Substring.UnicodeScalarView] = []
        let scalars = text.unicodeScalars
        switch self {
        case .gpt2:
            Self.splitPattern(scalars[...], into: &pieces)
            return pieces
        case .llama3(let digits):
            Self.splitLlama3(scalars[...], digits: digits, into: &pieces)
            return pieces
        case .smollm:
            break
        }
        // First, numeric characters stand alone.
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            if Self.isNumber(scalars[index]) {
                if start < index { Self.splitPattern(scalars[start..<index], into: &pieces) }
                let next = scalars.index(after: index)
                pieces.append(scalars[index..<next])
                start = next
                index = next
            } else {
                index = scalars.index(after: index)
            }
        }
        if start < scalars.endIndex { Self.splitPattern(scalars[start...], into: &pieces) }
        return pieces
    }

    private static func splitPattern(_ text: Substring.UnicodeScalarView, into pieces: inout [Substring.UnicodeScalarView]) {
        var index = text.startIndex
        let end = text.endIndex
        func advance(_ position: String.Index, while predicate: (Unicode.Scalar) -> Bool) -> String.Index {
            var position = position
            while position < end, predicate(text[position]) { position = text.index(after: position) }
            return position
        }
        while index < end {
            let scalar = text[index]
            // 's 't 're 've 'm 'll 'd
            if scalar == "'" {
                let next = text.index(after: index)
                if next < end {
                    let first = text[next]
                    let afterFirst = text.index(after: next)
                    if "stmd".unicodeScalars.contains(first) {
                        pieces.append(text[index..<afterFirst])
                        index = afterFirst
                        continue
                    }
                    if afterFirst < end {
                        let second = text[afterFirst]
                        if (first == "r" && second == "e") || (first == "v" && second == "e") || (first == "l" && second == "l") {
                            let afterSecond = text.index(after: afterFirst)
                            pieces.append(text[index..<afterSecond])
                            index = afterSecond
                            continue
                        }
                    }
                }
            }
            // An optional space, then letters, numbers, or other non-space characters.
            var body = index
            if scalar == " " { body = text.index(after: index) }
            if body < end {
                let lead = text[body]
                let predicate: ((Unicode.Scalar) -> Bool)? =
                    isLetter(lead) ? isLetter : isNumber(lead) ? isNumber : !isSpace(lead) ? { !isSpace($0) && !isLetter($0) && !isNumber($0) } : nil
                if let predicate {
                    let stop = advance(body, while: predicate)
                    pieces.append(text[index..<stop])
                    index = stop
                    continue
                }
            }
            // Whitespace: all of it at the end or before more whitespace, else all but the last
            // character (which goes with what follows).
            let stop = advance(index, while: isSpace)
            if stop < end, text.index(after: index) < stop {
                let lastSpace = text.index(before: stop)
                pieces.append(text[index..<lastSpace])
                index = lastSpace
            } else {
                pieces.append(text[index..<max(stop, text.index(after: index))])
                index = max(stop, text.index(after: index))
            }
        }
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\r" || scalar == "\n"
    }

    /// Llama 3's pattern, alternative by alternative.
    private static func splitLlama3(_ text: Substring.UnicodeScalarView, digits: Int, into pieces: inout [Substring.UnicodeScalarView]) {
        var index = text.startIndex
        let end = text.endIndex
        func after(_ position: String.Index) -> String.Index { text.index(after: position) }
        func advance(_ position: String.Index, limit: Int = .max, while predicate: (Unicode.Scalar) -> Bool) -> String.Index {
            var position = position
            var count = 0
            while position < end, count < limit, predicate(text[position]) {
                position = after(position)
                count += 1
            }
            return position
        }
        func take(_ stop: String.Index) {
            pieces.append(text[index..<stop])
            index = stop
        }
        while index < end {
            let scalar = text[index]
            // (?i:'s|'t|'re|'ve|'m|'ll|'d)
            if scalar == "'", after(index) < end {
                let first = after(index)
                let lower = text[first].properties.lowercaseMapping
                if ["s", "t", "m", "d"].contains(lower) {
                    take(after(first))
                    continue
                }
                if after(first) < end {
                    let pair = lower + text[after(first)].properties.lowercaseMapping
                    if ["re", "ve", "ll"].contains(pair) {
                        take(after(after(first)))
                        continue
                    }
                }
            }
            // [^\r\n\p{L}\p{N}]?\p{L}+
            if isLetter(scalar) {
                take(advance(index, while: isLetter))
                continue
            }
            if !isLineBreak(scalar), !isNumber(scalar), after(index) < end, isLetter(text[after(index)]) {
                take(advance(after(index), while: isLetter))
                continue
            }
            // \p{N}{1,digits}
            if isNumber(scalar) {
                take(advance(index, limit: digits, while: isNumber))
                continue
            }
            // ' ?[^\s\p{L}\p{N}]+[\r\n]*'
            let symbol: (Unicode.Scalar) -> Bool = { !isSpace($0) && !isLetter($0) && !isNumber($0) }
            let body = scalar == " " ? after(index) : index
            if body < end, symbol(text[body]) {
                take(advance(advance(body, while: symbol), while: isLineBreak))
                continue
            }
            // \s*[\r\n]+: the whitespace up to its last line break.
            let spaces = advance(index, while: isSpace)
            var lastBreak: String.Index?
            var position = index
            while position < spaces {
                if isLineBreak(text[position]) { lastBreak = position }
                position = after(position)
            }
            if let lastBreak {
                take(after(lastBreak))
                continue
            }
            // \s+(?!\S), then \s+: a run of whitespace before more text leaves its last character.
            if spaces < end, text.index(before: spaces) > index {
                take(text.index(before: spaces))
            } else {
                take(spaces)
            }
        }
    }
}
