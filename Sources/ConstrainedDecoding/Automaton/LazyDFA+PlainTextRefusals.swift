extension LazyDFA {
    /// The most characters ``plainTextRefusals(_:)`` lists, and the most states it visits.
    static let refusalLimit = 8
    static let refusalStateLimit = 8

    /// For a state that reads any plain text but a few ASCII characters: those characters, when
    /// every state that plain text leads to from `state` (a few at most, `state` among them)
    /// refuses exactly them at once and reads every other plain-text character, multibyte ones
    /// included, into another such state. From `state`, a plain-text token is then allowed exactly
    /// when it holds none of them: in a property name that `"patternProperties": {"b.*": false}`
    /// forbids to hold a `b`, say, where a walk of the trie would read most of it, since most
    /// subtrees hold a lowercase letter. `nil` otherwise, and where no character is refused.
    mutating func plainTextRefusals(_ state: Int32) -> [UInt8]? {
        var states: [Int32] = [state]
        var refused: [UInt8] = []
        var head = 0
        while head < states.count {
            let from = states[head]
            var count = 0
            for byte in UInt8(0x20)...0x7E where byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                let to = next(from, byte)
                if to < 0 {
                    // The first state sets the characters; every other one must refuse the same.
                    if head == 0 {
                        guard refused.count < Self.refusalLimit else { return nil }
                        refused.append(byte)
                    } else if !refused.contains(byte) {
                        return nil
                    }
                    count += 1
                } else if !states.contains(to) {
                    guard states.count < Self.refusalStateLimit else { return nil }
                    states.append(to)
                }
            }
            guard count == refused.count else { return nil }
            // Every multibyte plain-text character leads to another such state.
            let row = Int(from) * width
            for (sequence, classes) in zip(Self.plainSequences, plainClasses.leads) {
                for byteClass in classes {
                    var current = rowBase[row + byteClass]
                    for range in sequence.continuations {
                        guard current >= 0, let following = commonTarget(current, range) else { return nil }
                        current = following
                    }
                    guard current >= 0 else { return nil }
                    if !states.contains(current) {
                        guard states.count < Self.refusalStateLimit else { return nil }
                        states.append(current)
                    }
                }
            }
            head += 1
        }
        return refused.isEmpty ? nil : refused
    }
}
