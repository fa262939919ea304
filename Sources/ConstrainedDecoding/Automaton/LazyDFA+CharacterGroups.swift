extension LazyDFA {
    /// The most states a search of ``safeGroups(_:)`` visits before it gives up.
    static let groupSearchLimit = 48

    /// The ``CharacterGroups`` (as bits) that cannot lead `state` out of the grammar: from
    /// `state`, no string of their characters reaches ``dead``. A trie subtree whose characters
    /// below a node reached in `state` all fall in these groups is allowed whole. Found by
    /// searching the states such strings reach; where one of them meets ``dead``, the rarest group
    /// of the string's characters is dropped and the search starts again. Empty where the
    /// search would pass ``groupSearchLimit`` states, and where a lowercase letter is refused at
    /// once or lowercase letters alone lead out. Remembered per state.
    mutating func safeGroups(_ state: Int32) -> UInt16 {
        let known = walkInfo[Int(state)].safeGroups
        if known & WalkInfo.knownGroups != 0 { return UInt16(truncatingIfNeeded: known) }
        let groups = computeSafeGroups(state)
        walkInfo[Int(state)].safeGroups = UInt32(groups) | WalkInfo.knownGroups
        return groups
    }

    private mutating func computeSafeGroups(_ state: Int32) -> UInt16 {
        // Most tokens hold lowercase letters: where one is refused right away, as in most states
        // outside strings, the groups left take few subtrees whole, and are not worth a search.
        for byte in groupCharacters.ascii[Int(CharacterGroups.groupOfLead[Int(UInt8(ascii: "a"))])] where next(state, byte) < 0 {
            return 0
        }
        // The groups one of whose characters is refused right away, dropped before any search.
        var allowed: UInt16 = 0
        for group in 0..<CharacterGroups.count where findEnds(of: group, from: state) { allowed |= 1 << UInt16(group) }
        while allowed != 0 {
            groupQueue.removeAll()
            groupPaths.removeAll()
            groupQueue.append(state)
            groupPaths.append(0)
            var head = 0
            var leaving: UInt16?
            search: while head < groupQueue.count {
                let from = groupQueue[head]
                let path = groupPaths[head]
                head += 1
                for group in 0..<CharacterGroups.count where allowed & 1 << UInt16(group) != 0 {
                    let groups = path | 1 << UInt16(group)
                    guard findEnds(of: group, from: from) else {
                        leaving = groups
                        break search
                    }
                    for index in 0..<groupEnds.count where !groupQueue.contains(groupEnds[index]) {
                        guard groupQueue.count < Self.groupSearchLimit else { return 0 }
                        groupQueue.append(groupEnds[index])
                        groupPaths.append(groups)
                    }
                }
            }
            guard let leaving else { return allowed }
            // Of the groups on the way out, the one fewest tokens are made of; when that is the
            // lowercase letters (letters alone lead out, as where characters are counted), few
            // subtrees would be taken whole.
            guard let rarest = CharacterGroups.byRarity.first(where: { leaving & 1 << UInt16($0) != 0 }),
                rarest != CharacterGroups.byRarity.last
            else { return 0 }
            allowed &= ~(1 << UInt16(rarest))
        }
        return 0
    }

    /// Sets ``groupEnds`` to the states that the characters of `group` lead `from` to; `false`
    /// when one of them leads to ``dead``.
    private mutating func findEnds(of group: Int, from: Int32) -> Bool {
        groupEnds.removeAll()
        for byte in groupCharacters.ascii[group] {
            let target = next(from, byte)
            guard target >= 0 else { return false }
            if !groupEnds.contains(target) { groupEnds.append(target) }
        }
        for lead in groupCharacters.leads[group] {
            let afterLead = next(from, lead.byte)
            guard afterLead >= 0 else { return false }
            groupLevel.removeAll()
            groupLevel.append(afterLead)
            for range in Self.plainSequences[lead.sequence].continuations {
                groupNextLevel.removeAll()
                for index in 0..<groupLevel.count {
                    for byte in groupCharacters.continuations[range] {
                        let target = next(groupLevel[index], byte)
                        guard target >= 0 else { return false }
                        if !groupNextLevel.contains(target) { groupNextLevel.append(target) }
                    }
                }
                groupLevel.removeAll()
                groupLevel.append(contentsOf: UnsafeBufferPointer(groupNextLevel.elements))
            }
            for index in 0..<groupLevel.count where !groupEnds.contains(groupLevel[index]) { groupEnds.append(groupLevel[index]) }
        }
        return true
    }

    /// The bytes that spell the characters of each group, one per byte class: its ASCII
    /// characters, and the lead bytes of its longer ones with the continuation bytes that follow
    /// them (``plainSequences``).
    struct GroupCharacters {
        /// Per group, its ASCII characters.
        let ascii: [[UInt8]]
        /// Per group, its lead bytes, each with the index of its sequence in ``plainSequences``
        /// (a lead byte may start several).
        let leads: [[(byte: UInt8, sequence: Int)]]
        /// Per range of ``continuationRanges``, its bytes.
        let continuations: [[UInt8]]

        init(classes: [UInt8]) {
            // One byte per class; lead bytes also per sequence, since sequences differ in what
            // follows.
            func distinct(_ bytes: some Sequence<UInt8>) -> [UInt8] {
                var seen = Set<UInt8>()
                return bytes.filter { seen.insert(classes[Int($0)]).inserted }
            }
            var ascii = [[UInt8]](repeating: [], count: CharacterGroups.count)
            var leads = [[(byte: UInt8, sequence: Int)]](repeating: [], count: CharacterGroups.count)
            for group in 0..<CharacterGroups.count {
                let members = (UInt8(0)...0xFF).filter { CharacterGroups.groupOfLead[Int($0)] == group }
                ascii[group] = distinct(members.filter { $0 < 0x80 })
                for (index, sequence) in LazyDFA.plainSequences.enumerated() {
                    for byte in distinct(members.filter(sequence.leads.contains)) {
                        leads[group].append((byte, index))
                    }
                }
            }
            self.ascii = ascii
            self.leads = leads
            continuations = LazyDFA.continuationRanges.map { distinct($0) }
        }
    }
}
