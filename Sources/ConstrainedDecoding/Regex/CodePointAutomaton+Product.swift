/// Products of automata (intersection, difference), membership, and the automata of fixed sets of
/// strings: what `pattern` beside `format`, `propertyNames`, `patternProperties` and `not` need.
extension CodePointAutomaton {
    /// Every string.
    static let anyString = CodePointAutomaton(transitions: [[(CodePointSet.all, 0)]], accepting: [true], start: 0)

    /// The strings of `node`, within the length limits (in scalars).
    static func of(_ node: RegexNode?, minimumLength: Int = 0, maximumLength: Int? = nil) throws(RegexError) -> CodePointAutomaton {
        try CodePointAutomaton(node ?? .repetition(.set(.all), minimum: 0, maximum: nil), minimumLength: minimumLength, maximumLength: maximumLength)
    }

    /// Whether the automaton accepts `text`.
    func accepts(_ text: String) -> Bool {
        guard !isEmpty else { return false }
        var state = start
        for scalar in text.unicodeScalars {
            guard let move = transitions[state].first(where: { $0.set.contains(scalar.value) }) else { return false }
            state = move.target
        }
        return accepting[state]
    }

    /// The strings both accept.
    func intersection(_ other: CodePointAutomaton) throws(RegexError) -> CodePointAutomaton {
        try Self.product(self, other) { $0 && $1 }
    }

    /// The strings this accepts and `other` does not.
    func subtracting(_ other: CodePointAutomaton) throws(RegexError) -> CodePointAutomaton {
        try Self.product(self, other) { $0 && !$1 }
    }

    /// The strings either accepts.
    func union(_ other: CodePointAutomaton) throws(RegexError) -> CodePointAutomaton {
        try Self.product(self, other) { $0 || $1 }
    }

    /// Exactly `names`.
    static func exactly(_ names: [String]) -> CodePointAutomaton {
        (try? anyString.subtracting(excluding(names))) ?? anyString.emptied
    }

    /// Every string but `names`.
    static func excluding(_ names: some Sequence<String>) -> CodePointAutomaton {
        anyString.subtractingNames(Array(names))
    }

    /// The strings this accepts, but `names`.
    func subtractingNames(_ names: [String]) -> CodePointAutomaton {
        guard !names.isEmpty else { return self }
        // A trie of the names; leaving it anywhere, or ending off a name, is allowed.
        var transitions: [[(set: CodePointSet, target: Int)]] = [[]]
        var children: [[UInt32: Int]] = [[:]]
        var isName: [Bool] = [false]
        for name in names {
            var node = 0
            for scalar in name.unicodeScalars {
                if let child = children[node][scalar.value] {
                    node = child
                } else {
                    children.append([:])
                    isName.append(false)
                    transitions.append([])
                    children[node][scalar.value] = children.count - 1
                    node = children.count - 1
                }
            }
            isName[node] = true
        }
        let free = transitions.count
        transitions.append([(CodePointSet.all, free)])
        var accepting = isName.map { !$0 }
        accepting.append(true)
        for node in 0..<free {
            var listed = CodePointSet.empty
            for (scalar, child) in children[node].sorted(by: { $0.key < $1.key }) {
                transitions[node].append((CodePointSet(scalar), child))
                listed = listed.union(CodePointSet(scalar))
            }
            let others = CodePointSet.all.subtracting(listed)
            if !others.isEmpty { transitions[node].append((others, free)) }
        }
        let exclusion = CodePointAutomaton(transitions: transitions, accepting: accepting, start: 0)
        // The trie has at most one state per scalar of the names, well within the budget.
        return (try? intersection(exclusion)) ?? self
    }

    /// The product automaton, accepting where `keep` says from the two sides' acceptance; a side
    /// with no move goes to a dead state that accepts nothing.
    private static func product(
        _ left: CodePointAutomaton, _ right: CodePointAutomaton, keep: (Bool, Bool) -> Bool
    ) throws(RegexError) -> CodePointAutomaton {
        struct Pair: Hashable {
            var left: Int
            var right: Int
        }
        let leftStart = left.isEmpty ? -1 : left.start
        let rightStart = right.isEmpty ? -1 : right.start
        var pairs: [Pair] = [Pair(left: leftStart, right: rightStart)]
        var ids: [Pair: Int] = [pairs[0]: 0]
        var transitions: [[(set: CodePointSet, target: Int)]] = [[]]
        var index = 0
        func moves(_ automaton: CodePointAutomaton, _ state: Int) -> [(set: CodePointSet, target: Int)] {
            state < 0 ? [] : automaton.transitions[state]
        }
        while index < pairs.count {
            let pair = pairs[index]
            let leftMoves = moves(left, pair.left)
            let rightMoves = moves(right, pair.right)
            var outgoing: [(CodePointSet, Pair)] = []
            var leftCovered = CodePointSet.empty
            var rightCovered = CodePointSet.empty
            for leftMove in leftMoves {
                leftCovered = leftCovered.union(leftMove.set)
                for rightMove in rightMoves {
                    let common = leftMove.set.intersection(rightMove.set)
                    if !common.isEmpty { outgoing.append((common, Pair(left: leftMove.target, right: rightMove.target))) }
                }
            }
            for rightMove in rightMoves { rightCovered = rightCovered.union(rightMove.set) }
            for leftMove in leftMoves {
                let alone = leftMove.set.subtracting(rightCovered)
                if !alone.isEmpty { outgoing.append((alone, Pair(left: leftMove.target, right: -1))) }
            }
            for rightMove in rightMoves {
                let alone = rightMove.set.subtracting(leftCovered)
                if !alone.isEmpty { outgoing.append((alone, Pair(left: -1, right: rightMove.target))) }
            }
            for (set, target) in outgoing {
                let id: Int
                if let known = ids[target] {
                    id = known
                } else {
                    id = pairs.count
                    ids[target] = id
                    pairs.append(target)
                    transitions.append([])
                    guard pairs.count <= stateBudget else { throw RegexError(reason: "the combined patterns need more than \(stateBudget) states") }
                }
                transitions[index].append((set, id))
            }
            index += 1
        }
        let accepting = pairs.map { pair in
            keep(pair.left >= 0 && left.accepting[pair.left], pair.right >= 0 && right.accepting[pair.right])
        }
        return prune(transitions: transitions, accepting: accepting, start: 0)
    }
}
