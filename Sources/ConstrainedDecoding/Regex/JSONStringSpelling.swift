/// How the characters of a JSON string are written: canonically, as UTF-8, except `"`, `\` and
/// the control characters, which take their short escape (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`,
/// `\f`) or `\u00XX` in lowercase hexadecimal. Each character has exactly one spelling, so a
/// string's text and its value determine each other.
enum JSONStringSpelling {
    static let mustEscape = CodePointSet([0...0x1F, 0x22...0x22, 0x5C...0x5C])
    /// The characters written as themselves: plain text.
    static let plainText = CodePointSet.all.subtracting(mustEscape)

    /// The states of `automaton` from which every plain-text character leads to another such
    /// state, so that no plain text, however long, leaves the language's prefixes: the largest
    /// set closed that way, found by removing states, and rechecking those that lead to them,
    /// until none is left to remove.
    static func statesOutlivingPlainText(_ automaton: CodePointAutomaton) -> [Bool] {
        let count = automaton.transitions.count
        // A few characters first: most states (counted, or of a format) miss one of them.
        let probes: [UInt32] = [0x20, 0x30, 0x41, 0x61, 0x7E, 0xE9, 0x4E2D, 0x1F600]
        var outlives = automaton.transitions.map { moves in probes.allSatisfy { probe in moves.contains { $0.set.contains(probe) } } }
        guard outlives.contains(true) else { return outlives }
        var predecessors = [[Int]](repeating: [], count: count)
        for (state, moves) in automaton.transitions.enumerated() {
            for move in moves where move.target != state { predecessors[move.target].append(state) }
        }
        var pending = (0..<count).filter { outlives[$0] }
        var isPending = outlives
        while let state = pending.popLast() {
            isPending[state] = false
            guard outlives[state] else { continue }
            var missing = plainText
            for move in automaton.transitions[state] where outlives[move.target] {
                missing = missing.subtracting(move.set)
                if missing.isEmpty { break }
            }
            guard !missing.isEmpty else { continue }
            outlives[state] = false
            for predecessor in predecessors[state] where outlives[predecessor] && !isPending[predecessor] {
                isPending[predecessor] = true
                pending.append(predecessor)
            }
        }
        return outlives
    }

    /// The escape of a character that must be escaped.
    static func escape(_ scalar: UInt32) -> [UInt8] {
        switch scalar {
        case 0x22: Array(#"\""#.utf8)
        case 0x5C: Array(#"\\"#.utf8)
        case 0x0A: Array(#"\n"#.utf8)
        case 0x0D: Array(#"\r"#.utf8)
        case 0x09: Array(#"\t"#.utf8)
        case 0x08: Array(#"\b"#.utf8)
        case 0x0C: Array(#"\f"#.utf8)
        default:
            Array("\\u00".utf8) + [hexDigit(scalar >> 4), hexDigit(scalar & 0xF)]
        }
    }

    private static func hexDigit(_ value: UInt32) -> UInt8 {
        value < 10 ? UInt8(0x30 + value) : UInt8(0x61 + value - 10)
    }

    /// Adds to `builder` the paths from `from` to `to` that spell one character of `set`.
    static func addCharacters(_ set: CodePointSet, from: Int32, to: Int32, in builder: inout NFABuilder) throws(SchemaError) {
        let escaped = set.intersection(mustEscape)
        if !escaped.isEmpty {
            // After the backslash, one trie of the escapes of the set, shared by every state
            // that reads them on to `to`.
            let key = "escapes \(to) " + escaped.ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
            let entry = try builder.sharedEntry(key) { (builder: inout NFABuilder) throws(SchemaError) -> Int32 in
                let root = try builder.newState()
                var nodes: [[UInt8]: Int32] = [[]: root]
                for range in escaped.ranges {
                    for scalar in range {
                        let bytes = Array(escape(scalar).dropFirst())
                        var state = root
                        for length in 1...bytes.count {
                            let byte = bytes[length - 1]
                            if length == bytes.count {
                                builder.transition(state, byte, byte, to)
                            } else if let known = nodes[Array(bytes[..<length])] {
                                state = known
                            } else {
                                let created = try builder.newState()
                                builder.transition(state, byte, byte, created)
                                nodes[Array(bytes[..<length])] = created
                                state = created
                            }
                        }
                    }
                }
                return root
            }
            builder.transition(from, 0x5C, 0x5C, entry)
        }
        for range in set.subtracting(mustEscape).ranges {
            for sequence in UTF8Sequences.of(range) {
                try builder.path(sequence, from: from, to: to)
            }
        }
    }

    /// How the scalars of an automaton become bytes.
    enum Spelling {
        /// As UTF-8, as in number text.
        case raw
        /// As inside a JSON string, escapes included.
        case jsonString
    }

    /// A fragment for the language of `automaton`, spelled as asked (for a string, quotes
    /// excluded).
    static func fragment(of automaton: CodePointAutomaton, spelling: Spelling, in builder: inout NFABuilder) throws(SchemaError) -> Fragment {
        var states: [Int32] = []
        for _ in automaton.transitions.indices { states.append(try builder.newState()) }
        let end = try builder.newState()
        if spelling == .jsonString {
            for (state, outlives) in statesOutlivingPlainText(automaton).enumerated() where outlives {
                builder.markAbsorbingPlainText(states[state])
            }
        }
        for (state, moves) in automaton.transitions.enumerated() {
            for move in moves {
                switch spelling {
                case .jsonString:
                    try addCharacters(move.set, from: states[state], to: states[move.target], in: &builder)
                case .raw:
                    for range in move.set.ranges {
                        for sequence in UTF8Sequences.of(range) {
                            try builder.path(sequence, from: states[state], to: states[move.target])
                        }
                    }
                }
            }
            if automaton.accepting[state] { builder.epsilon(states[state], end) }
        }
        return Fragment(start: states[automaton.start], end: end)
    }
}

extension NFABuilder {
    /// A fragment for the strings a whole-match regex accepts, spelled as asked.
    mutating func regexFragment(
        _ pattern: String, spelling: JSONStringSpelling.Spelling, pointer: String, keyword: String = "pattern"
    ) throws(SchemaError) -> Fragment {
        do {
            let automaton = try CodePointAutomaton(try RegexParser.wholeMatchLanguage(pattern))
            guard !automaton.isEmpty else { throw SchemaError.invalid(keyword: keyword, pointer: pointer, reason: "no string matches it") }
            return try JSONStringSpelling.fragment(of: automaton, spelling: spelling, in: &self)
        } catch let error as RegexError {
            throw .unsupported(keyword: keyword, pointer: pointer, reason: error.reason)
        } catch let error as SchemaError {
            throw error
        } catch {
            throw .unsupported(keyword: keyword, pointer: pointer, reason: "\(error)")
        }
    }
}
