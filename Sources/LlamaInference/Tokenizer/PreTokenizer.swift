/// Splits text into the pieces that BPE encodes separately, as the `smollm` pre-tokenizer does:
/// every numeric character on its own, then GPT-2's pattern
/// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`.
enum PreTokenizer {
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
    static func split(_ text: String) -> [Substring.UnicodeScalarView] {
        var pieces: [Substring.UnicodeScalarView] = []
        let scalars = text.unicodeScalars
        // First, numeric characters stand alone.
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            if isNumber(scalars[index]) {
                if start < index { splitPattern(scalars[start..<index], into: &pieces) }
                let next = scalars.index(after: index)
                pieces.append(scalars[index..<next])
                start = next
                index = next
            } else {
                index = scalars.index(after: index)
            }
        }
        if start < scalars.endIndex { splitPattern(scalars[start...], into: &pieces) }
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
}
