/// A ``ByteNFA`` with its edges in flat arrays: state `s` has the transitions
/// `transitions[transitionStarts[s]..<transitionStarts[s + 1]]` and likewise for ε-transitions.
///
/// Appending one to another is a handful of array copies, which is how a grammar's templates are
/// joined into one ``TemplatePool``; no state owns an array of its own.
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
    /// Per state: ``ByteNFA/State/absorbsPlainText``.
    private(set) var absorbsPlainText: [Bool] = []

    init() {}

    init(_ nfa: ByteNFA) {
        transitionStarts.reserveCapacity(nfa.states.count + 1)
        epsilonStarts.reserveCapacity(nfa.states.count + 1)
        callDefinitions.reserveCapacity(nfa.states.count)
        callContinuations.reserveCapacity(nfa.states.count)
        absorbsPlainText.reserveCapacity(nfa.states.count)
        for state in nfa.states {
            transitions += state.transitions
            epsilons += state.epsilons
            transitionStarts.append(Int32(transitions.count))
            epsilonStarts.append(Int32(epsilons.count))
            callDefinitions.append(state.call?.definition ?? Self.noCall)
            callContinuations.append(state.call?.continuation ?? 0)
            absorbsPlainText.append(state.absorbsPlainText)
        }
    }

    var stateCount: Int { callDefinitions.count }

    /// Appends the states of `other`, shifted, and returns the shift.
    mutating func append(_ other: CompactNFA) -> Int32 {
        let offset = Int32(stateCount)
        Self.append(other.transitions, to: &transitions) { $0.target &+= offset }
        Self.append(other.epsilons, to: &epsilons) { $0 &+= offset }
        let transitionOffset = transitionStarts.removeLast()
        Self.append(other.transitionStarts, to: &transitionStarts) { $0 &+= transitionOffset }
        let epsilonOffset = epsilonStarts.removeLast()
        Self.append(other.epsilonStarts, to: &epsilonStarts) { $0 &+= epsilonOffset }
        callDefinitions += other.callDefinitions
        Self.append(other.callContinuations, to: &callContinuations) { $0 &+= offset }
        absorbsPlainText += other.absorbsPlainText
        return offset
    }

    /// Shifts every call by `offset` templates, for templates compiled on their own (an embedded
    /// JSON Schema's) that join a grammar after `offset` others.
    mutating func shiftCalls(by offset: Int32) {
        for index in callDefinitions.indices where callDefinitions[index] != Self.noCall {
            callDefinitions[index] += offset
        }
    }

    /// Appends `elements` to `array` in one copy, then shifts the new elements in place.
    private static func append<Element>(_ elements: [Element], to array: inout [Element], shift: (inout Element) -> Void) {
        let base = array.count
        array += elements
        array.withUnsafeMutableBufferPointer { buffer in
            for index in base..<buffer.count { shift(&buffer[index]) }
        }
    }
}
