/// A nondeterministic automaton over bytes, built from fragments by ``NFABuilder``.
///
/// A state has byte-range transitions, ε-transitions, and possibly a *call*: a reference to a
/// definition of the grammar (`$ref`), expanded into a fresh copy of the definition's template
/// only when the automaton reaches it, whose end leads to the call's continuation. Recursive
/// schemas are therefore unfolded as deep as a document actually nests, no deeper.
struct ByteNFA: Sendable {
    struct Transition: Sendable {
        var low: UInt8
        var high: UInt8
        var target: Int32
    }

    struct Call: Sendable {
        var definition: Int32
        var continuation: Int32
    }

    struct State: Sendable {
        var transitions: [Transition] = []
        var epsilons: [Int32] = []
        var call: Call?
        /// Whether every plain-text character (one that a JSON string writes as itself) leads
        /// from here, through ε-moves, to a state with this flag: a thread here outlives any
        /// plain text.
        var absorbsPlainText = false
    }

    var states: [State] = []
}

/// A piece of automaton under construction: where it starts and the state it ends in (which has
/// no outgoing edge yet).
struct Fragment {
    var start: Int32
    var end: Int32
}

/// Builds a ``ByteNFA`` template from fragments, within a state budget.
struct NFABuilder {
    private(set) var nfa = ByteNFA()
    let stateBudget: Int
    /// States that read one byte range and go on to a state, shared by every path that ends the
    /// same way (the last bytes of UTF-8 characters and escapes leading to the same state).
    private var sharedSuffixes: [SharedSuffix: Int32] = [:]

    /// States that start a shared sub-automaton, by a key that says what it reads and where it
    /// leads.
    private var sharedEntries: [String: Int32] = [:]

    private struct SharedSuffix: Hashable {
        let low: UInt8
        let high: UInt8
        let next: Int32
    }

    init(stateBudget: Int) {
        self.stateBudget = stateBudget
    }

    mutating func newState() throws(SchemaError) -> Int32 {
        guard nfa.states.count < stateBudget else {
            throw .tooLarge("more than \(stateBudget) automaton states")
        }
        nfa.states.append(ByteNFA.State())
        return Int32(nfa.states.count - 1)
    }

    /// Adds a path from `from` through `bytes` (one range each) to `to`. The states along it are
    /// shared with every other path to `to` that ends with the same ranges, so that reading a
    /// character from many states leads to the same few states.
    mutating func path(_ bytes: [ClosedRange<UInt8>], from: Int32, to: Int32) throws(SchemaError) {
        guard let first = bytes.first else { return epsilon(from, to) }
        var next = to
        for range in bytes.dropFirst().reversed() {
            let key = SharedSuffix(low: range.lowerBound, high: range.upperBound, next: next)
            if let shared = sharedSuffixes[key] {
                next = shared
            } else {
                let state = try newState()
                transition(state, range.lowerBound, range.upperBound, next)
                sharedSuffixes[key] = state
                next = state
            }
        }
        transition(from, first.lowerBound, first.upperBound, next)
    }

    /// The entry state of the sub-automaton that `key` names: built by `build` the first time.
    mutating func sharedEntry(_ key: String, build: (inout NFABuilder) throws(SchemaError) -> Int32) throws(SchemaError) -> Int32 {
        if let entry = sharedEntries[key] { return entry }
        let entry = try build(&self)
        sharedEntries[key] = entry
        return entry
    }

    mutating func epsilon(_ from: Int32, _ to: Int32) {
        nfa.states[Int(from)].epsilons.append(to)
    }

    /// Flags `state` as one that any plain text keeps alive (``ByteNFA/State/absorbsPlainText``).
    mutating func markAbsorbingPlainText(_ state: Int32) {
        nfa.states[Int(state)].absorbsPlainText = true
    }

    mutating func transition(_ from: Int32, _ low: UInt8, _ high: UInt8, _ to: Int32) {
        nfa.states[Int(from)].transitions.append(ByteNFA.Transition(low: low, high: high, target: to))
    }

    /// A fragment that matches nothing but the empty string.
    mutating func empty() throws(SchemaError) -> Fragment {
        let state = try newState()
        return Fragment(start: state, end: state)
    }

    /// A fragment for exactly these bytes.
    mutating func literal(_ bytes: some Sequence<UInt8>) throws(SchemaError) -> Fragment {
        let start = try newState()
        var end = start
        for byte in bytes {
            let next = try newState()
            transition(end, byte, byte, next)
            end = next
        }
        return Fragment(start: start, end: end)
    }

    /// A fragment for one byte in `low...high`.
    mutating func range(_ low: UInt8, _ high: UInt8) throws(SchemaError) -> Fragment {
        let start = try newState()
        let end = try newState()
        transition(start, low, high, end)
        return Fragment(start: start, end: end)
    }

    /// A call of a definition.
    mutating func call(_ definition: Int32) throws(SchemaError) -> Fragment {
        let start = try newState()
        let end = try newState()
        nfa.states[Int(start)].call = ByteNFA.Call(definition: definition, continuation: end)
        return Fragment(start: start, end: end)
    }

    mutating func sequence(_ fragments: [Fragment]) throws(SchemaError) -> Fragment {
        guard var result = fragments.first else { return try empty() }
        for fragment in fragments.dropFirst() {
            epsilon(result.end, fragment.start)
            result.end = fragment.end
        }
        return result
    }

    mutating func alternation(_ fragments: [Fragment]) throws(SchemaError) -> Fragment {
        if fragments.count == 1 { return fragments[0] }
        let start = try newState()
        let end = try newState()
        for fragment in fragments {
            epsilon(start, fragment.start)
            epsilon(fragment.end, end)
        }
        return Fragment(start: start, end: end)
    }

    mutating func optional(_ fragment: Fragment) throws(SchemaError) -> Fragment {
        let start = try newState()
        let end = try newState()
        epsilon(start, fragment.start)
        epsilon(start, end)
        epsilon(fragment.end, end)
        return Fragment(start: start, end: end)
    }

    /// Zero or more repetitions of a fragment.
    mutating func star(_ fragment: Fragment) throws(SchemaError) -> Fragment {
        let start = try newState()
        let end = try newState()
        epsilon(start, fragment.start)
        epsilon(start, end)
        epsilon(fragment.end, fragment.start)
        epsilon(fragment.end, end)
        return Fragment(start: start, end: end)
    }

    /// Between `minimum` and `maximum` (unbounded when `nil`) repetitions of the fragments that
    /// `make` builds, each call building a fresh copy.
    mutating func repeated(
        minimum: Int, maximum: Int?, _ make: (inout NFABuilder) throws(SchemaError) -> Fragment
    ) throws(SchemaError) -> Fragment {
        var parts: [Fragment] = []
        for _ in 0..<minimum { parts.append(try make(&self)) }
        if let maximum {
            // Optional copies nest, so that a stop is allowed after each one: (x(x(x)?)?)?
            if maximum > minimum {
                var tail: Fragment?
                for _ in minimum..<maximum {
                    let copy = try make(&self)
                    let body = if let inner = tail { try sequence([copy, inner]) } else { copy }
                    tail = try optional(body)
                }
                if let tail { parts.append(tail) }
            }
        } else {
            parts.append(try star(try make(&self)))
        }
        return try sequence(parts)
    }

    /// Marks where the template ends; its end state gets no outgoing edge.
    func finished(start: Int32, end: Int32) -> (nfa: ByteNFA, start: Int32, end: Int32) {
        (nfa, start, end)
    }
}
