/// Watches the tokens of a response for a loop: the same run of tokens written again and again,
/// back to back, which a structured answer never leaves in practice before its budget or the
/// context runs out. It only reports; it never changes what the model writes.
///
/// For each period `p` up to ``maximumPeriod`` it keeps how many of the last tokens equal the
/// token `p` before them, so each token costs one comparison per period. A loop is reported once
/// the last ``minimumSpan`` tokens or more repeat a unit of `p` tokens at least
/// ``minimumRepeats`` times.
struct RepetitionWatch {
    /// The longest unit watched, in tokens.
    static let maximumPeriod = 96
    /// The fewest tokens a loop spans before it is reported: a few seconds of writing.
    static let minimumSpan = 160
    /// The fewest times the unit comes in a row before a loop is reported.
    static let minimumRepeats = 4

    /// What was found: the repeated unit and how many tokens the loop spans.
    struct Loop: Equatable {
        var unit: [Int32]
        var span: Int
    }

    private var tokens: [Int32] = []
    /// For each period `p` (at index `p - 1`), how many tokens in a row, ending with the last,
    /// equal the token `p` before them.
    private var runs = [Int](repeating: 0, count: RepetitionWatch.maximumPeriod)

    /// Adds a written token; returns the loop it completes, if any.
    mutating func append(_ token: Int32) -> Loop? {
        tokens.append(token)
        let count = tokens.count
        guard count > 1 else { return nil }
        var found: Loop?
        for period in 1...min(Self.maximumPeriod, count - 1) {
            if tokens[count - 1 - period] == token {
                runs[period - 1] += 1
            } else {
                runs[period - 1] = 0
            }
            let span = runs[period - 1] + period
            if found == nil, span >= Self.minimumSpan, span >= Self.minimumRepeats * period {
                found = Loop(unit: Array(tokens[(count - period)...]), span: span)
            }
        }
        return found
    }
}
