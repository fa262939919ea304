/// The deterministic automaton of a grammar, built state by state as bytes are tried.
///
/// A DFA state is a set of NFA states; its 256 transitions are computed together the first time
/// the state is left, by splitting the byte range into the intervals where its NFA transitions
/// agree. Calls of definitions are expanded during ε-closure, one copy per call site reached,
/// up to a nesting limit.
final class LazyDFA {
    /// No state: the byte is not allowed.
    static let dead: Int32 = -1
    static let unknown: Int32 = -2

    private let templates: [GrammarTemplate]
    private let maximumCallDepth: Int
    private var nfa = ByteNFA()
    private var depths: [Int32] = []
    private var expansions: [Int32: Int32] = [:]
    private let acceptState: Int32

    private var sets: [[Int32]] = []
    private var ids: [[Int32]: Int32] = [:]
    /// 256 entries per state: the next state, ``dead``, or ``unknown`` until computed. Manually
    /// managed so that mask walks read it through a plain pointer; it moves when it grows.
    private(set) var rowBase: UnsafeMutablePointer<Int32> = .allocate(capacity: 256 * 64)
    private var rowCapacity = 64
    private(set) var accepting: [Bool] = []
    /// Per state: its plain-text target, ``unknown``, or ``mixed``.
    private var plainTargets: [Int32] = []
    private var marks: [UInt32] = []
    private var stamp: UInt32 = 0

    /// The state before any byte.
    private(set) var start: Int32 = 0

    /// - Parameters:
    ///   - templates: the root's template first, then one per definition.
    init(templates: [GrammarTemplate], maximumCallDepth: Int) {
        self.templates = templates
        self.maximumCallDepth = maximumCallDepth
        let root = templates[0]
        let offset = nfa.instantiate(root.nfa)
        depths = Array(repeating: 0, count: nfa.states.count)
        acceptState = root.end + offset
        start = intern(closure([root.start + offset]))
    }

    /// How many DFA states exist so far.
    var stateCount: Int { sets.count }

    /// The state after `byte`, or ``dead``; `state` must not be dead.
    @inline(__always)
    func next(_ state: Int32, _ byte: UInt8) -> Int32 {
        let entry = rowBase[Int(state) &* 256 &+ Int(byte)]
        if entry != Self.unknown { return entry }
        computeRow(state)
        return rowBase[Int(state) &* 256 &+ Int(byte)]
    }

    deinit {
        rowBase.deallocate()
    }

    func isAccepting(_ state: Int32) -> Bool {
        accepting[Int(state)]
    }

    private func intern(_ set: [Int32]) -> Int32 {
        if set.isEmpty { return Self.dead }
        if let id = ids[set] { return id }
        let id = Int32(sets.count)
        sets.append(set)
        ids[set] = id
        if sets.count > rowCapacity {
            let grown = UnsafeMutablePointer<Int32>.allocate(capacity: rowCapacity * 2 * 256)
            grown.initialize(from: rowBase, count: rowCapacity * 256)
            rowBase.deallocate()
            rowBase = grown
            rowCapacity *= 2
        }
        (rowBase + Int(id) * 256).initialize(repeating: Self.unknown, count: 256)
        accepting.append(set.contains(acceptState))
        plainTargets.append(Self.unknown)
        return id
    }

    /// Where any one plain-text character leads from `state`, when they all lead to the same state
    /// (``dead`` included) — as inside a string whose characters are only counted, or free. Then
    /// a plain-text token is allowed exactly when the chain of such states is long enough for its
    /// character count. `nil` when characters lead to different states.
    func plainTextTarget(_ state: Int32) -> Int32? {
        let index = Int(state)
        if plainTargets[index] == Self.unknown { plainTargets[index] = computePlainTextTarget(state) ?? Self.mixed }
        let target = plainTargets[index]
        return target == Self.mixed ? nil : target
    }

    private static let mixed: Int32 = -3

    private func computePlainTextTarget(_ state: Int32) -> Int32? {
        let target = next(state, UInt8(ascii: "a"))
        for byte in UInt8(0x20)...0x7F where byte != 0x22 && byte != 0x5C {
            if next(state, byte) != target { return nil }
        }
        /// Whether every byte in `range` leads from `from` to one state, and returns it.
        func common(_ from: Int32, _ range: ClosedRange<UInt8>) -> Int32? {
            guard from >= 0 else { return from }
            let first = next(from, range.lowerBound)
            for byte in range where next(from, byte) != first { return nil }
            return first
        }
        let continuation: ClosedRange<UInt8> = 0x80...0xBF
        // Each lead byte, with the range its first continuation byte may take.
        let leads: [(ClosedRange<UInt8>, ClosedRange<UInt8>, Int)] = [
            (0xC2...0xDF, continuation, 1), (0xE0...0xE0, 0xA0...0xBF, 2), (0xE1...0xEC, continuation, 2),
            (0xED...0xED, 0x80...0x9F, 2), (0xEE...0xEF, continuation, 2), (0xF0...0xF0, 0x90...0xBF, 3),
            (0xF1...0xF3, continuation, 3), (0xF4...0xF4, 0x80...0x8F, 3),
        ]
        for (leadRange, firstRange, length) in leads {
            for lead in leadRange {
                guard var current = common(next(state, lead), firstRange) else { return nil }
                for _ in 1..<length {
                    guard let following = common(current, continuation) else { return nil }
                    current = following
                }
                if current != target { return nil }
            }
        }
        return target
    }

    /// Computes the transitions of `state`; ``rowBase`` may move.
    func computeRow(_ state: Int32) {
        let set = sets[Int(state)]
        // Interval boundaries: every low and every high + 1.
        var cutMarks = [Bool](repeating: false, count: 257)
        cutMarks[0] = true
        cutMarks[256] = true
        var transitionCount = 0
        for nfaState in set {
            for transition in nfa.states[Int(nfaState)].transitions {
                cutMarks[Int(transition.low)] = true
                cutMarks[Int(transition.high) + 1] = true
                transitionCount += 1
            }
        }
        var row = [Int32](repeating: Self.dead, count: 256)
        guard transitionCount > 0 else {
            writeRow(state, row)
            return
        }
        var targets: [Int32] = []
        var known: [[Int32]: Int32] = [:]
        var low = 0
        while low < 256 {
            var high = low + 1
            while !cutMarks[high] { high += 1 }
            let byte = UInt8(low)
            targets.removeAll(keepingCapacity: true)
            for nfaState in set {
                for transition in nfa.states[Int(nfaState)].transitions where transition.low <= byte && byte <= transition.high {
                    targets.append(transition.target)
                }
            }
            if !targets.isEmpty {
                targets.sort()
                let next: Int32
                if let seen = known[targets] {
                    next = seen
                } else {
                    next = intern(closure(targets))
                    known[targets] = next
                }
                for index in low..<high { row[index] = next }
            }
            low = high
        }
        writeRow(state, row)
    }

    private func writeRow(_ state: Int32, _ row: [Int32]) {
        let base = Int(state) * 256
        row.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress else { return }
            (rowBase + base).update(from: from, count: 256)
        }
    }

    /// The states reachable from `seeds` by ε-transitions and calls, keeping those that read a
    /// byte or accept, sorted.
    private func closure(_ seeds: [Int32]) -> [Int32] {
        stamp &+= 1
        if marks.count < nfa.states.count { marks += repeatElement(0, count: nfa.states.count - marks.count) }
        var stack = seeds
        var core: [Int32] = []
        while let state = stack.popLast() {
            let index = Int(state)
            if index >= marks.count { marks += repeatElement(0, count: nfa.states.count - marks.count) }
            if marks[index] == stamp { continue }
            marks[index] = stamp
            let nfaState = nfa.states[index]
            if !nfaState.transitions.isEmpty || state == acceptState { core.append(state) }
            stack += nfaState.epsilons
            if let call = nfaState.call, let entry = expand(call, at: state) { stack.append(entry) }
        }
        core.sort()
        return core
    }

    /// The entry of the copy of a definition that the call at `state` leads to.
    private func expand(_ call: ByteNFA.Call, at state: Int32) -> Int32? {
        if let entry = expansions[state] { return entry }
        let depth = depths[Int(state)] + 1
        guard depth <= maximumCallDepth else { return nil }
        let template = templates[Int(call.definition)]
        let offset = nfa.instantiate(template.nfa)
        depths += repeatElement(depth, count: nfa.states.count - depths.count)
        nfa.states[Int(template.end + offset)].epsilons.append(call.continuation)
        let entry = template.start + offset
        expansions[state] = entry
        return entry
    }
}
