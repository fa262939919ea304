extension CodePointAutomaton {
    /// A text that two automata share exactly when their states, in order, accept alike and have
    /// the same transitions: a key for one definition per automaton, as the automata that one
    /// language and one construction give are numbered alike (breadth first from the start).
    var fingerprint: String {
        var text = "\(start)"
        for (state, moves) in transitions.enumerated() {
            text += accepting[state] ? "|a" : "|n"
            for move in moves {
                for range in move.set.ranges { text += "," + String(range.lowerBound, radix: 16) + "-" + String(range.upperBound, radix: 16) }
                text += ">" + String(move.target)
            }
        }
        return text
    }
}
