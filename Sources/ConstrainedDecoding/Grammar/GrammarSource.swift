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
