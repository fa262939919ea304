/// A deterministic automaton over Unicode scalars, from a regular expression, possibly limited
/// in length, with every state able to reach acceptance.
struct CodePointAutomaton: Sendable {
    /// Transitions of each state: disjoint sets of scalars and their targets.
    var transitions: [[(set: CodePointSet, target: Int)]]
    var accepting: [Bool]
    var start: Int

    /// The largest automaton built for one string.
    static let stateBudget = 60_000

    /// The automaton of `node`, limited to lengths in `minimumLength...maximumLength` (in scalars).
    init(_ node: RegexNode, minimumLength: Int = 0, maximumLength: Int? = nil) throws(RegexError) {
        var nfa = ScalarNFA()
        let (start, end) = try nfa.build(node)
        self = try Self.determinize(nfa, start: start, end: end, minimumLength: minimumLength, maximumLength: maximumLength)
    }

    /// Whether the automaton accepts nothing at all.
    var isEmpty: Bool { transitions.isEmpty }

    private static func determinize(
        _ nfa: ScalarNFA, start: Int, end: Int, minimumLength: Int, maximumLength: Int?
    ) throws(RegexError) -> CodePointAutomaton {
        // A state: a set of NFA states and the count of scalars read, capped at the maximum length,
        // or at the minimum when the length is unbounded.
        struct Key: Hashable {
            var states: [Int]
            var length: Int
        }
        let lengthCap = maximumLength ?? minimumLength
        // A set that holds the end and a loop over every scalar that leads back to itself and
        // the end (the `.*` after a pattern's match) accepts every continuation: all such sets
        // are one state, `everything`, so that the loops of several alternatives that matched
        // do not multiply the states.
        let loops = nfa.universalLoops(end: end)
        let everything = [-1]
        func canonical(_ states: [Int]) -> [Int] {
            guard !loops.isEmpty, states.contains(end), states.contains(where: loops.contains) else { return states }
            return everything
        }
        var keys: [Key] = []
        var ids: [Key: Int] = [:]
        var transitions: [[(set: CodePointSet, target: Int)]] = []
        var queue: [Int] = []
        /// The state of `key`, queued to be explored when it is new.
        func intern(_ key: Key) -> Int {
            if let id = ids[key] { return id }
            keys.append(key)
            transitions.append([])
            ids[key] = keys.count - 1
            queue.append(keys.count - 1)
            return keys.count - 1
        }
        let initial = intern(Key(states: canonical(nfa.closure([start])), length: 0))
        while let id = queue.popLast() {
            let key = keys[id]
            if let maximumLength, key.length >= maximumLength { continue }
            if key.states == everything {
                transitions[id] = [(CodePointSet.all, intern(Key(states: everything, length: min(key.length + 1, lengthCap))))]
                continue
            }
            let moves = key.states.flatMap { nfa.states[$0].moves }
            // Split the scalars into classes on which every move agrees.
            var cuts = Set<UInt32>()
            for move in moves {
                for range in move.set.ranges {
                    cuts.insert(range.lowerBound)
                    cuts.insert(range.upperBound + 1)
                }
            }
            let points = cuts.sorted()
            var byTarget: [Key: [ClosedRange<UInt32>]] = [:]
            var order: [Key] = []
            for (low, next) in zip(points, points.dropFirst()) {
                let targets = moves.filter { $0.set.contains(low) }.map(\.target)
                guard !targets.isEmpty else { continue }
                let target = Key(states: canonical(nfa.closure(targets)), length: min(key.length + 1, lengthCap))
                if byTarget[target] == nil { order.append(target) }
                byTarget[target, default: []].append(low...(next - 1))
            }
            for target in order {
                transitions[id].append((CodePointSet(byTarget[target] ?? []), intern(target)))
            }
            guard keys.count <= stateBudget else { throw RegexError(reason: "the pattern needs more than \(stateBudget) states") }
        }
        let accepting = keys.map { ($0.states == everything || $0.states.contains(end)) && $0.length >= minimumLength }
        return prune(transitions: transitions, accepting: accepting, start: initial)
    }

    /// Keeps the states that are reachable and can reach acceptance.
    static func prune(transitions: [[(set: CodePointSet, target: Int)]], accepting: [Bool], start: Int) -> CodePointAutomaton {
        var live = accepting
        var changed = true
        while changed {
            changed = false
            for state in transitions.indices where !live[state] {
                if transitions[state].contains(where: { live[$0.target] }) {
                    live[state] = true
                    changed = true
                }
            }
        }
        guard live[start] else { return CodePointAutomaton(transitions: [], accepting: [], start: 0) }
        var renumber: [Int: Int] = [:]
        var order = [start]
        renumber[start] = 0
        var index = 0
        while index < order.count {
            for move in transitions[order[index]] where live[move.target] && renumber[move.target] == nil {
                renumber[move.target] = order.count
                order.append(move.target)
            }
            index += 1
        }
        let newTransitions = order.map { state in
            transitions[state].compactMap { move in renumber[move.target].map { (move.set, $0) } }
        }
        return CodePointAutomaton(transitions: newTransitions, accepting: order.map { accepting[$0] }, start: 0)
    }

    init(transitions: [[(set: CodePointSet, target: Int)]], accepting: [Bool], start: Int) {
        self.transitions = transitions
        self.accepting = accepting
        self.start = start
    }
}

/// A Thompson automaton over scalars, for building ``CodePointAutomaton``.
private struct ScalarNFA {
    struct State {
        var moves: [(set: CodePointSet, target: Int)] = []
        var epsilons: [Int] = []
    }

    var states: [State] = []

    mutating func newState() throws(RegexError) -> Int {
        guard states.count < 200_000 else { throw RegexError(reason: "the pattern is too large") }
        states.append(State())
        return states.count - 1
    }

    mutating func build(_ node: RegexNode) throws(RegexError) -> (Int, Int) {
        switch node {
        case .empty:
            let state = try newState()
            return (state, state)
        case .startAnchor, .endAnchor:
            throw RegexError(reason: "an anchor inside the pattern is not supported")
        case .set(let set):
            let start = try newState()
            let end = try newState()
            if !set.isEmpty { states[start].moves.append((set, end)) }
            return (start, end)
        case .sequence(let items):
            let start = try newState()
            var end = start
            for item in items {
                let (itemStart, itemEnd) = try build(item)
                states[end].epsilons.append(itemStart)
                end = itemEnd
            }
            return (start, end)
        case .alternation(let alternatives):
            let start = try newState()
            let end = try newState()
            for alternative in alternatives {
                let (alternativeStart, alternativeEnd) = try build(alternative)
                states[start].epsilons.append(alternativeStart)
                states[alternativeEnd].epsilons.append(end)
            }
            return (start, end)
        case .repetition(let inner, let minimum, let maximum):
            let start = try newState()
            var end = start
            for _ in 0..<minimum {
                let (copyStart, copyEnd) = try build(inner)
                states[end].epsilons.append(copyStart)
                end = copyEnd
            }
            if let maximum {
                let exit = try newState()
                states[end].epsilons.append(exit)
                for _ in minimum..<max(maximum, minimum) {
                    let (copyStart, copyEnd) = try build(inner)
                    states[end].epsilons.append(copyStart)
                    states[copyEnd].epsilons.append(exit)
                    end = copyEnd
                }
                return (start, exit)
            }
            let (loopStart, loopEnd) = try build(inner)
            let exit = try newState()
            states[end].epsilons += [loopStart, exit]
            states[loopEnd].epsilons += [loopStart, exit]
            return (start, exit)
        }
    }

    /// The states with a move on every scalar to a state whose closure holds them and `end`:
    /// from a set that holds one of them and `end`, every string is accepted.
    func universalLoops(end: Int) -> Set<Int> {
        var loops = Set<Int>()
        for (index, state) in states.enumerated() {
            for move in state.moves where move.set == .all {
                let reached = closure([move.target])
                if reached.contains(index), reached.contains(end) { loops.insert(index) }
            }
        }
        return loops
    }

    func closure(_ seeds: [Int]) -> [Int] {
        var seen = Set<Int>()
        var stack = seeds
        while let state = stack.popLast() {
            guard seen.insert(state).inserted else { continue }
            stack += states[state].epsilons
        }
        return seen.sorted()
    }
}
