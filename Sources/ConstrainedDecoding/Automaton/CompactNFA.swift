/// A ``ByteNFA`` with its edges in flat arrays: state `s` has the transitions
/// `transitions[transitionStarts[s]..<transitionStarts[s + 1]]` and likewise for ε-transitions.
///
/// Appending one to another is a handful of array copies, which is how the lazy DFA expands a
/// call of a definition, so that no state owns an array of its own.
struct CompactNFA: Sendable {
    /// No call at this state.
    static let noCall: Int32 = -1

    private(set) var transitionStarts: [Int32] = [0]
    private(set) var transitions: [ByteNFA.Transition] = []
    private(set) var epsilonStarts: [Int32] = [0]
    private(set) var epsilons: [Int32] = []
    /// Per state: the definition it calls, or ``noCall``.
    private(set) var callDefinitions: [Int32] = []
    /// Per state with a call: where the call continues.
    private(set) var callContinuations: [Int32] = []

    init() {}

    init(_ nfa: ByteNFA) {
        transitionStarts.reserveCapacity(nfa.states.count + 1)
        epsilonStarts.reserveCapacity(nfa.states.count + 1)
        callDefinitions.reserveCapacity(nfa.states.count)
        callContinuations.reserveCapacity(nfa.states.count)
        for state in nfa.states {
            transitions += state.transitions
            epsilons += state.epsilons
            transitionStarts.append(Int32(transitions.count))
            epsilonStarts.append(Int32(epsilons.count))
            callDefinitions.append(state.call?.definition ?? Self.noCall)
            callContinuations.append(state.call?.continuation ?? 0)
        }
    }

    var stateCount: Int { callDefinitions.count }

    /// Appends the states of `other`, shifted, and returns the shift.
    mutating func append(_ other: CompactNFA) -> Int32 {
        let offset = Int32(stateCount)
        let transitionOffset = Int32(transitions.count)
        let epsilonOffset = Int32(epsilons.count)
        transitions.reserveCapacity(transitions.count + other.transitions.count)
        for var transition in other.transitions {
            transition.target &+= offset
            transitions.append(transition)
        }
        epsilons.reserveCapacity(epsilons.count + other.epsilons.count)
        for target in other.epsilons { epsilons.append(target &+ offset) }
        transitionStarts.reserveCapacity(transitionStarts.count + other.stateCount)
        for start in other.transitionStarts.dropFirst() { transitionStarts.append(start &+ transitionOffset) }
        epsilonStarts.reserveCapacity(epsilonStarts.count + other.stateCount)
        for start in other.epsilonStarts.dropFirst() { epsilonStarts.append(start &+ epsilonOffset) }
        callDefinitions += other.callDefinitions
        callContinuations.reserveCapacity(callContinuations.count + other.stateCount)
        for continuation in other.callContinuations { callContinuations.append(continuation &+ offset) }
        return offset
    }
}
