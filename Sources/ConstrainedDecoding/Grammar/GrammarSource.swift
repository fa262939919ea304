/// The text of a grammar as Unicode scalars, with where each line starts, so that a parser can
/// name the line and column of any character it stops at.
struct GrammarSource {
    let scalars: [Unicode.Scalar]
    /// The offset of the first character of each line.
    private let lineStarts: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(offset + 1) }
        lineStarts = starts
    }

    /// The character at `offset`, or `nil` past the end.
    subscript(offset: Int) -> Unicode.Scalar? {
        offset < scalars.count ? scalars[offset] : nil
    }

    /// The line and column of the character at `offset`.
    func place(_ offset: Int) -> GrammarRules.Place {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return GrammarRules.Place(line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// The text from `start` up to `end`.
    func text(_ start: Int, _ end: Int) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<end])
        return text
    }
}

/// What the text front ends read alike: errors at a place, counts, hexadecimal escapes and
/// bounded repetitions.
extension GrammarSource {
    /// A syntax error at `offset`, in rule `rule`.
    func error(_ reason: String, at offset: Int, rule: String?) -> GrammarError {
        let place = place(offset)
        return .syntax(rule: rule, line: place.line, column: place.column, reason: reason)
    }

    /// What stands at `offset`, for errors.
    func found(at offset: Int) -> String {
        guard let scalar = self[offset] else { return "the end of the grammar" }
        switch scalar {
        case "\n", "\r": return "the end of the line"
        default: return "'\(Character(scalar))'"
        }
    }

    /// The decimal count at `position`, at most `limit`.
    func count(at position: inout Int, limit: Int, rule: String?) throws(GrammarError) -> Int {
        let start = position
        var value = 0
        while let scalar = self[position], "0"..."9" ~= scalar {
            value = min(value * 10 + Int(scalar.value - 0x30), limit + 1)
            position += 1
        }
        guard position > start else { throw error("expected a number in the repetition, found \(found(at: position))", at: position, rule: rule) }
        guard value <= limit else { throw error("a repetition count above \(limit)", at: start, rule: rule) }
        return value
    }

    /// The scalar of `digits` hexadecimal digits at `position`, of the escape that starts at
    /// `escape`.
    func hexScalar(digits: Int, at position: inout Int, escape: Int, rule: String?) throws(GrammarError) -> Unicode.Scalar {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let scalar = self[position], let digit = Character(scalar).hexDigitValue else {
                throw error("expected \(digits) hexadecimal digits in the escape", at: escape, rule: rule)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("the escape stands for \(String(value, radix: 16, uppercase: true)), which is not a Unicode scalar value", at: escape, rule: rule)
        }
        return scalar
    }

    /// `{m}`, `{m,}` or `{m,n}` (and `{,n}` where `minimumMayBeOmitted`), from just after the
    /// `{` at `start`: the counts, each at most `limit`; `nil` for an unbounded maximum.
    func braceRepetition(at position: inout Int, from start: Int, limit: Int, minimumMayBeOmitted: Bool, rule: String?) throws(GrammarError) -> (Int, Int?) {
        func skipSpaces() {
            while self[position] == " " || self[position] == "\t" { position += 1 }
        }
        skipSpaces()
        let minimum = minimumMayBeOmitted && self[position] == "," ? 0 : try count(at: &position, limit: limit, rule: rule)
        skipSpaces()
        var maximum: Int? = minimum
        if self[position] == "," {
            position += 1
            skipSpaces()
            maximum = self[position].map { "0"..."9" ~= $0 } == true ? try count(at: &position, limit: limit, rule: rule) : nil
            skipSpaces()
        }
        guard self[position] == "}" else { throw error("expected '}' to close the repetition, found \(found(at: position))", at: position, rule: rule) }
        position += 1
        if let maximum, maximum < minimum { throw error("a repetition whose maximum is below its minimum", at: start, rule: rule) }
        return (minimum, maximum)
    }
}
