import Foundation

/// The deterministic automaton of a grammar, built state by state as bytes are tried.
///
/// A DFA state is a sorted set of NFA states; its transitions, one per byte class
/// (``ByteClasses``), are computed together the first time the state is left, by splitting the
/// byte range into the intervals where its NFA transitions agree. Calls of definitions are
/// expanded during ε-closure, one copy per call site reached, up to a nesting limit. A copy is an
/// offset into the grammar's ``TemplatePool``: NFA state `g` of copy `c` is pool state
/// `g - delta(c)`, and copies start at multiples of 64 so that a state's copy is found by its
/// block. Building a state allocates nothing but the growth of flat tables, since a state's first
/// visit is on the path of a token mask.
struct LazyDFA: ~Copyable {
    /// No state: the byte is not allowed.
    static let dead: Int32 = -1
    static let unknown: Int32 = -2
    private static let mixed: Int32 = -3
    private static let notExpanded: Int32 = -2

    private let pool: TemplatePool
    // The pool's tables, read without reference counting.
    private let transitionStarts: UnsafeMutablePointer<Int32>
    private let transitions: UnsafeMutablePointer<ByteNFA.Transition>
    private let epsilonStarts: UnsafeMutablePointer<Int32>
    private let epsilons: UnsafeMutablePointer<Int32>
    private let callDefinitions: UnsafeMutablePointer<Int32>
    private let callContinuations: UnsafeMutablePointer<Int32>
    private let absorbsPlainText: UnsafeMutablePointer<Bool>
    private let maximumCallDepth: Int
    /// The NFA state ids in use: every copy's states lie below.
    private var nfaStateCount = 0
    /// Per copy: what to add to a pool state to get the copy's state.
    private var copyDeltas = ScratchBuffer<Int32>()
    /// Per copy: how deeply calls nest in it.
    private var copyDepths = ScratchBuffer<Int32>()
    /// Per copy: the pool state of its template's end, and the state that end continues at (-1
    /// for the root, ``isolatedEnd`` for ``isolatedStringContents(_:)``).
    private var copyEnds = ScratchBuffer<Int32>()
    private var copyReturns = ScratchBuffer<Int32>()
    /// Per copy: the template it copies.
    private var copyTemplates = ScratchBuffer<Int32>()
    /// Per block of 64 NFA state ids: the copy they belong to.
    private var blockCopies = ScratchBuffer<Int32>()
    /// Per NFA state with a call: the entry of the copy it expanded into, ``dead`` when too deep.
    private var expansions = ScratchBuffer<Int32>()
    private var acceptState: Int32 = 0
    /// Per copy: ``outsideUniqueArray``, or (inside an array whose items must be distinct) the
    /// state of the copy that reads the array's `[`, which is not yet inside it (-1 for none).
    private var copyUniqueStarts = ScratchBuffer<Int32>()
    private static let outsideUniqueArray: Int32 = -2
    /// The continuation of a copy of string contents that nothing follows: its end is kept as a
    /// live state that reads nothing, as the closing quote's state is, wherever it is called.
    private static let isolatedEnd: Int32 = -3
    /// Whether some template checks the uniqueness of array items.
    let checksUniqueness: Bool

    /// The NFA states of each DFA state, by DFA state id.
    private var sets = SequenceTable()
    /// Sorted NFA target lists already closed, and the DFA state each closes into.
    private var closedTargets = SequenceTable()
    private var closedStates = ScratchBuffer<Int32>()
    /// Per NFA state: the DFA state that it alone closes into, or ``unknown`` — most target
    /// lists have one state, and this finds them without hashing.
    private var singleClosures = ScratchBuffer<Int32>()
    /// ``width`` entries per state, one per byte class: the next state, ``dead``, or ``unknown``
    /// until computed. Manually managed so that mask walks read it through a plain pointer.
    private var rows: GrowingRows
    /// The first entry of ``rows``; it moves, seldom, when they grow.
    var rowBase: UnsafeMutablePointer<Int32> { rows.base }
    /// The entries of a row: the number of byte classes.
    let width: Int
    /// The class of each byte, read without bounds checks in mask walks.
    let classOf: UnsafeMutablePointer<UInt8>
    let plainClasses: PlainTextClasses
    private var accepting = ScratchBuffer<Bool>()
    /// Per state: whether some of its NFA states are inside an array whose items must be distinct.
    private var uniqueThreads = ScratchBuffer<Bool>()
    /// Per state: the state of its NFA states outside such arrays, ``dead`` or ``unknown``.
    private var outsideStates = ScratchBuffer<Int32>()
    /// Per state: what mask walks read of it, in one table (``WalkInfo``).
    var walkInfo = ScratchBuffer<WalkInfo>()
    /// Per state: its ``stringInterior(_:)``, ``unknown``, or ``dead`` for none.
    private var stateInteriors = ScratchBuffer<Int32>()
    /// The string interiors found, by id: sorted records of pool states of string-contents
    /// templates (``stringInterior(_:)``).
    private var interiors = SequenceTable()
    /// Per interior: its ``interiorRepresentative(_:)``.
    private var interiorStates = ScratchBuffer<Int32>()
    /// Per state: its ``plainTextRun(_:)``, ``unknown``, or ``mixed``.
    private var plainRuns = ScratchBuffer<Int32>()
    /// The longest plain-text run worth counting: the longest plain-text token's length, in
    /// characters.
    let plainTextLimit: Int32
    /// Per state and range of ``continuationRanges``: the common target, ``unknown`` or ``mixed``.
    private var commonTargets = ScratchBuffer<Int32>()
    /// The characters of each ``CharacterGroups`` group, one per byte class.
    let groupCharacters: GroupCharacters
    // Scratch space of ``safeGroups(_:)``: the states found, the groups of the characters each was
    // first reached by, and the states a group's characters lead to.
    var groupQueue = ScratchBuffer<Int32>()
    var groupPaths = ScratchBuffer<UInt16>()
    var groupEnds = ScratchBuffer<Int32>()
    var groupLevel = ScratchBuffer<Int32>()
    var groupNextLevel = ScratchBuffer<Int32>()

    // Scratch space, kept between calls so that building a state does not allocate.
    private var marks = ScratchBuffer<UInt32>()
    private var stamp: UInt32 = 0
    private var stack = ScratchBuffer<Int32>()
    private var core = ScratchBuffer<Int32>()
    private var targets = ScratchBuffer<Int32>()
    private var rowTransitions = ScratchBuffer<ByteNFA.Transition>()
    private var sortedTransitions = ScratchBuffer<ByteNFA.Transition>()
    private var previousTargets = ScratchBuffer<Int32>()
    private var activeTransitions = ScratchBuffer<ByteNFA.Transition>()

    /// The state before any byte.
    private(set) var start: Int32 = 0

    init(pool: TemplatePool, classes: ByteClasses, maximumCallDepth: Int, plainTextLimit: Int) {
        self.pool = pool
        self.plainTextLimit = Int32(plainTextLimit)
        transitionStarts = pool.transitionStarts
        transitions = pool.transitions
        epsilonStarts = pool.epsilonStarts
        epsilons = pool.epsilons
        callDefinitions = pool.callDefinitions
        callContinuations = pool.callContinuations
        absorbsPlainText = pool.absorbsPlainText
        self.maximumCallDepth = maximumCallDepth
        checksUniqueness = pool.hasUniquenessChecks
        width = classes.count
        classOf = .allocate(capacity: 256)
        classOf.initialize(from: classes.classes, count: 256)
        plainClasses = PlainTextClasses(classOf: classOf)
        groupCharacters = GroupCharacters(classes: classes.classes)
        rows = GrowingRows(count: 256 * width)
        let delta = addCopy(of: 0, depth: 0, returningTo: -1)
        acceptState = pool.ends[0] + delta
        targets.append(pool.starts[0] + delta)
        start = closeTargets()
    }

    /// How many DFA states exist so far.
    var stateCount: Int { sets.count }

    /// The state after `byte`, or ``dead``; `state` must not be dead.
    @inline(__always)
    mutating func next(_ state: Int32, _ byte: UInt8) -> Int32 {
        let slot = Int(state) &* width &+ Int(classOf[Int(byte)])
        let entry = rowBase[slot]
        if entry != Self.unknown { return entry }
        computeRow(state)
        return rowBase[slot]
    }

    deinit {
        classOf.deallocate()
    }

    func isAccepting(_ state: Int32) -> Bool {
        accepting[Int(state)]
    }

    /// Whether some of the state's NFA states are inside an array whose items must be distinct.
    func hasUniqueThreads(_ state: Int32) -> Bool {
        uniqueThreads[Int(state)]
    }

    /// The state of `state`'s NFA states outside arrays whose items must be distinct: where the
    /// document can go once an item repeated an earlier one; ``dead`` when nowhere.
    mutating func withoutUniqueThreads(_ state: Int32) -> Int32 {
        let known = outsideStates[Int(state)]
        if known != Self.unknown { return known }
        core.removeAll()
        for element in Int(sets.starts[Int(state)])..<Int(sets.starts[Int(state) + 1]) {
            let nfaState = sets.pool[element]
            if !isUniqueThread(nfaState) { core.append(nfaState) }
        }
        let result = internCore()
        outsideStates[Int(state)] = result
        return result
    }

    @inline(__always)
    private func isUniqueThread(_ nfaState: Int32) -> Bool {
        let start = copyUniqueStarts[copyIndex(of: nfaState)]
        return start != Self.outsideUniqueArray && start != nfaState
    }

    // MARK: Building states

    /// The copy NFA state `state` belongs to, found by its block of 64.
    @inline(__always)
    private func copyIndex(of state: Int32) -> Int {
        Int(blockCopies[Int(state) >> 6])
    }

    /// Makes a copy of template `template` at the next free block, and returns its delta.
    private mutating func addCopy(of template: Int, depth: Int32, returningTo continuation: Int32) -> Int32 {
        let base = (nfaStateCount + 63) & ~63
        let delta = Int32(base) - pool.bases[template]
        let copy = Int32(copyDeltas.count)
        copyDeltas.append(delta)
        copyDepths.append(depth)
        copyTemplates.append(Int32(template))
        copyEnds.append(pool.ends[template])
        copyReturns.append(continuation)
        if pool.checksUniqueness[template] {
            copyUniqueStarts.append(pool.starts[template] + delta)
        } else if continuation >= 0, copyUniqueStarts[copyIndex(of: continuation)] != Self.outsideUniqueArray {
            copyUniqueStarts.append(-1)
        } else {
            copyUniqueStarts.append(Self.outsideUniqueArray)
        }
        nfaStateCount = base + Int(pool.sizes[template])
        blockCopies.extend(to: (nfaStateCount + 63) >> 6, with: copy)
        expansions.extend(to: nfaStateCount, with: Self.notExpanded)
        singleClosures.extend(to: nfaStateCount, with: Self.unknown)
        return delta
    }

    /// The DFA state that the NFA states in ``targets`` (sorted) close into.
    private mutating func closeTargets() -> Int32 {
        if targets.count == 1 {
            let target = Int(targets[0])
            let known = singleClosures[target]
            if known != Self.unknown { return known }
            closure()
            let state = internCore()
            singleClosures[target] = state
            return state
        }
        let (entry, isNew) = closedTargets.intern(UnsafeBufferPointer(targets.elements))
        if !isNew { return closedStates[Int(entry)] }
        closure()
        let state = internCore()
        closedStates.append(state)
        return state
    }

    /// The DFA state of the NFA states in ``core``, added when new; ``dead`` when it is empty.
    private mutating func internCore() -> Int32 {
        if core.isEmpty { return Self.dead }
        let (id, isNew) = sets.intern(UnsafeBufferPointer(core.elements))
        if isNew {
            addState(
                accepting: core.contains(acceptState), uniqueThreads: checksUniqueness && core.elements.contains { isUniqueThread($0) },
                anyPlainText: core.elements.contains { absorbsPlainText[Int($0 &- copyDeltas[copyIndex(of: $0)])] })
        }
        return id
    }

    private mutating func addState(accepting isAccepting: Bool, uniqueThreads hasUniqueThreads: Bool, anyPlainText allowsAny: Bool) {
        rows.grow(toHold: sets.count * width)
        (rowBase + (sets.count - 1) * width).initialize(repeating: Self.unknown, count: width)
        accepting.append(isAccepting)
        uniqueThreads.append(hasUniqueThreads)
        outsideStates.append(Self.unknown)
        walkInfo.append(WalkInfo(plainTarget: Self.unknown, safeGroups: allowsAny ? WalkInfo.anyPlainText : 0))
        plainRuns.append(Self.unknown)
        stateInteriors.append(Self.unknown)
        commonTargets.extend(to: commonTargets.count + Self.continuationRanges.count, with: Self.unknown)
    }

    /// Sets ``core`` to the states reachable from ``targets`` by ε-transitions and calls, keeping
    /// those that read a byte or accept, sorted.
    private mutating func closure() {
        stamp &+= 1
        if stamp == 0 {
            marks.elements.update(repeating: 0)
            stamp = 1
        }
        stack.removeAll()
        stack.append(contentsOf: UnsafeBufferPointer(targets.elements))
        core.removeAll()
        while let state = stack.popLast() {
            let index = Int(state)
            if index >= marks.count { marks.extend(to: nfaStateCount, with: 0) }
            if marks[index] == stamp { continue }
            marks[index] = stamp
            let copy = copyIndex(of: state)
            let delta = copyDeltas[copy]
            let poolState = Int(state &- delta)
            if transitionStarts[poolState] != transitionStarts[poolState + 1] || state == acceptState
                || (poolState == Int(copyEnds[copy]) && copyReturns[copy] == Self.isolatedEnd)
            {
                core.append(state)
            }
            for edge in Int(epsilonStarts[poolState])..<Int(epsilonStarts[poolState + 1]) {
                stack.append(epsilons[edge] &+ delta)
            }
            if poolState == Int(copyEnds[copy]) {
                let back = copyReturns[copy]
                if back >= 0 { stack.append(back) }
            }
            if callDefinitions[poolState] != CompactNFA.noCall {
                let entry = expand(at: state, copy: copy, poolState: poolState)
                if entry >= 0 { stack.append(entry) }
            }
        }
        if core.count > 1 { Self.sort(core.elements) }
    }

    /// The entry of the copy of a definition that the call at `state` leads to, or ``dead`` past
    /// the nesting limit.
    private mutating func expand(at state: Int32, copy: Int, poolState: Int) -> Int32 {
        let index = Int(state)
        let known = expansions[index]
        if known != Self.notExpanded { return known }
        let template = Int(callDefinitions[poolState])
        // The contents of a string stand in for characters spelt in place: they call nothing but
        // characters, and neither counts toward the nesting limit.
        let depth = copyDepths[copy] + (pool.readsStringContents[template] || pool.readsStringCharacters[template] ? 0 : 1)
        guard depth <= maximumCallDepth else {
            expansions[index] = Self.dead
            return Self.dead
        }
        let continuation = callContinuations[poolState] &+ copyDeltas[copy]
        let entry = pool.starts[template] &+ addCopy(of: template, depth: depth, returningTo: continuation)
        expansions[index] = entry
        return entry
    }

    /// Computes the transitions of `state`; ``rowBase`` may move.
    mutating func computeRow(_ state: Int32) {
        // The transitions of the state's NFA states, copied since building targets adds states,
        // in order of their first byte.
        rowTransitions.removeAll()
        for element in Int(sets.starts[Int(state)])..<Int(sets.starts[Int(state) + 1]) {
            let nfaState = sets.pool[element]
            let delta = copyDeltas[copyIndex(of: nfaState)]
            let poolState = Int(nfaState &- delta)
            for edge in Int(transitionStarts[poolState])..<Int(transitionStarts[poolState + 1]) {
                var transition = transitions[edge]
                transition.target &+= delta
                rowTransitions.append(transition)
            }
        }
        if rowTransitions.count > 1 { sortTransitionsByLow() }
        // A sweep over the bytes: each interval where the same transitions apply gets one target.
        // Neighbouring intervals often lead to the same NFA states (the bytes around a quote
        // inside a string); their closure is then looked up once.
        activeTransitions.removeAll()
        previousTargets.removeAll()
        var previousState = Self.dead
        var pending = 0
        var low = 0
        while low < 256 {
            activeTransitions.retain { Int($0.high) >= low }
            while pending < rowTransitions.count && Int(rowTransitions[pending].low) == low {
                activeTransitions.append(rowTransitions[pending])
                pending += 1
            }
            var high = pending < rowTransitions.count ? Int(rowTransitions[pending].low) : 256
            for transition in activeTransitions.elements { high = min(high, Int(transition.high) + 1) }
            var next = Self.dead
            if !activeTransitions.isEmpty {
                targets.removeAll()
                for transition in activeTransitions.elements { targets.append(transition.target) }
                if targets.count > 1 { Self.sort(targets.elements) }
                if targets.elementsEqual(previousTargets) {
                    next = previousState
                } else {
                    next = closeTargets()
                    previousTargets.removeAll()
                    previousTargets.append(contentsOf: UnsafeBufferPointer(targets.elements))
                    previousState = next
                }
            }
            // Interval bounds are class bounds: the interval covers whole classes.
            let firstClass = Int(classOf[low])
            (rowBase + Int(state) * width + firstClass).update(repeating: next, count: Int(classOf[high - 1]) - firstClass + 1)
            low = high
        }
    }

    /// Sorts ``rowTransitions`` by their first byte, stably: insertion sort when a state has
    /// few, else a counting sort through ``sortedTransitions``.
    private mutating func sortTransitionsByLow() {
        let transitions = rowTransitions.elements
        let count = transitions.count
        guard count > 24 else {
            for index in 1..<max(count, 1) {
                let transition = transitions[index]
                var position = index
                while position > 0 && transitions[position - 1].low > transition.low {
                    transitions[position] = transitions[position - 1]
                    position -= 1
                }
                transitions[position] = transition
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 257) { starts in
            starts.initialize(repeating: 0)
            for transition in transitions { starts[Int(transition.low) + 1] += 1 }
            for byte in 1...256 { starts[byte] += starts[byte - 1] }
            sortedTransitions.extend(to: count, with: transitions[0])
            let sorted = sortedTransitions.base
            for transition in transitions {
                let slot = Int(starts[Int(transition.low)])
                sorted[slot] = transition
                starts[Int(transition.low)] = Int32(slot + 1)
            }
            transitions.baseAddress?.update(from: sorted, count: count)
        }
    }

    /// Sorts in place without allocating: quicksort on the median of three, insertion sort for
    /// short runs, heapsort where partitions keep coming out lopsided.
    static func sort(_ values: UnsafeMutableBufferPointer<Int32>) {
        var depthLimit = 2 * (Int.bitWidth - values.count.leadingZeroBitCount)
        sort(values, 0, values.count, &depthLimit)
    }

    private static func sort(_ values: UnsafeMutableBufferPointer<Int32>, _ start: Int, _ end: Int, _ depthLimit: inout Int) {
        var low = start
        var high = end
        while high - low > 24 {
            guard depthLimit > 0 else {
                heapSort(UnsafeMutableBufferPointer(rebasing: values[low..<high]))
                return
            }
            depthLimit -= 1
            let middle = low + (high - low) / 2
            let first = values[low], second = values[middle], last = values[high - 1]
            let pivot = max(min(first, second), min(max(first, second), last))
            var left = low
            var right = high - 1
            while true {
                while values[left] < pivot { left += 1 }
                while values[right] > pivot { right -= 1 }
                if left >= right { break }
                values.swapAt(left, right)
                left += 1
                right -= 1
            }
            // The smaller side first, the larger one by looping.
            if right + 1 - low < high - right - 1 {
                sort(values, low, right + 1, &depthLimit)
                low = right + 1
            } else {
                sort(values, right + 1, high, &depthLimit)
                high = right + 1
            }
        }
        for index in (low + 1)..<max(high, low + 1) {
            let value = values[index]
            var position = index
            while position > low && values[position - 1] > value {
                values[position] = values[position - 1]
                position -= 1
            }
            values[position] = value
        }
    }

    private static func heapSort(_ values: UnsafeMutableBufferPointer<Int32>) {
        let count = values.count
        func siftDown(_ root: Int, _ end: Int) {
            var parent = root
            while true {
                var child = 2 * parent + 1
                if child >= end { return }
                if child + 1 < end && values[child + 1] > values[child] { child += 1 }
                if values[parent] >= values[child] { return }
                values.swapAt(parent, child)
                parent = child
            }
        }
        for root in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(root, count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            values.swapAt(0, end)
            siftDown(0, end)
        }
    }

    // MARK: String interiors

    /// The interior of `state` inside a string whose contents are shared (``TemplatePool/readsStringContents``):
    /// the pool states of the string-contents templates among its NFA states (but their ends), each
    /// with the pool states that the copies of character templates it lies in return to, up to
    /// the contents, as an id shared by every state with the same ones, when all its other NFA
    /// states read nothing but the closing quote (where the string's context takes over). `nil`
    /// otherwise. From two states with the same interior, a token without a quote is read the
    /// same way (it never reaches the context, and the copies of a template that calls only
    /// character templates read alike), so they allow the same such tokens. Remembered per state;
    /// the first state found with an interior is its ``interiorRepresentative(_:)``.
    mutating func stringInterior(_ state: Int32) -> Int32? {
        let known = stateInteriors[Int(state)]
        if known != Self.unknown { return known >= 0 ? known : nil }
        core.removeAll()
        // Each NFA state of the interior is a record of `stride` pool states, padded with -1.
        let stride = pool.stringContentsNesting
        var eligible = true
        for element in Int(sets.starts[Int(state)])..<Int(sets.starts[Int(state) + 1]) {
            let nfaState = sets.pool[element]
            let copy = copyIndex(of: nfaState)
            let poolState = nfaState &- copyDeltas[copy]
            let template = Int(copyTemplates[copy])
            if pool.readsStringContents[template] || pool.readsStringCharacters[template] {
                // The end of an isolated copy stands for the closing quote's state.
                if poolState == pool.ends[template] && copyReturns[copy] == Self.isolatedEnd { continue }
                let record = core.count
                core.append(poolState)
                var outer = copy
                while pool.readsStringCharacters[Int(copyTemplates[outer])], copyReturns[outer] >= 0 {
                    let back = copyReturns[outer]
                    outer = copyIndex(of: back)
                    core.append(back &- copyDeltas[outer])
                }
                // Characters must lie in string contents, whose end only the closing quote follows.
                guard pool.readsStringContents[Int(copyTemplates[outer])], core.count - record <= stride else {
                    eligible = false
                    break
                }
                while core.count - record < stride { core.append(-1) }
                continue
            }
            let first = Int(transitionStarts[Int(poolState)])
            let end = Int(transitionStarts[Int(poolState) + 1])
            let quote = UInt8(ascii: "\"")
            guard first < end, (first..<end).allSatisfy({ transitions[$0].low == quote && transitions[$0].high == quote }) else {
                eligible = false
                break
            }
        }
        var interior = Self.dead
        if eligible && !core.isEmpty {
            // Copies of one template in different places share their pool states: kept once.
            let kept = Self.sortUniqueRecords(core.elements, stride: stride)
            let (id, isNew) = interiors.intern(UnsafeBufferPointer(start: core.base, count: kept))
            if isNew { interiorStates.append(state) }
            interior = id
        }
        stateInteriors[Int(state)] = interior
        return interior >= 0 ? interior : nil
    }

    /// The first state found with string interior `interior`: masks and plain-text runs, the same
    /// for every state with the interior, are computed there, and shared.
    func interiorRepresentative(_ interior: Int32) -> Int32 {
        interiorStates[Int(interior)]
    }

    /// Sorts the records of `stride` values in `values` and keeps each once, at the front;
    /// returns how many values are kept.
    static func sortUniqueRecords(_ values: UnsafeMutableBufferPointer<Int32>, stride: Int) -> Int {
        let count = values.count / stride
        if stride == 1 {
            if count > 1 { sort(values) }
        } else {
            // Insertion sort: an interior holds few NFA states.
            func precedes(_ left: Int, _ right: Int) -> Bool {
                for offset in 0..<stride where values[left * stride + offset] != values[right * stride + offset] {
                    return values[left * stride + offset] < values[right * stride + offset]
                }
                return false
            }
            for index in 1..<max(count, 1) {
                var position = index
                while position > 0 && precedes(position, position - 1) {
                    for offset in 0..<stride { values.swapAt(position * stride + offset, (position - 1) * stride + offset) }
                    position -= 1
                }
            }
        }
        var kept = min(count, 1)
        for index in 1..<max(count, 1) {
            let isRepeat = (0..<stride).allSatisfy { values[index * stride + $0] == values[(kept - 1) * stride + $0] }
            if isRepeat { continue }
            for offset in 0..<stride { values[kept * stride + offset] = values[index * stride + offset] }
            kept += 1
        }
        return kept * stride
    }

    /// How many string interiors have been found.
    var interiorCount: Int { interiors.count }

    /// A state at the start of a copy of string-contents template `template` whose end leads to
    /// a live state that reads nothing (as the closing quote's state reads no other byte): its
    /// states, and those it leads to, have the interiors of the template's copies wherever the
    /// grammar calls it, and the same masks of the tokens without a quote. ``dead`` when the
    /// template is not one whose copies read alike.
    mutating func isolatedStringContents(_ template: Int) -> Int32 {
        guard pool.readsStringContents[template] else { return Self.dead }
        let delta = addCopy(of: template, depth: 0, returningTo: Self.isolatedEnd)
        targets.removeAll()
        targets.append(pool.starts[template] + delta)
        return closeTargets()
    }

    /// The number of templates in the grammar.
    var templateCount: Int { pool.starts.count }

    // MARK: Plain text

    /// The UTF-8 spellings of the plain-text characters beyond ASCII
    /// (``VocabularyIndex/plainTextBeyondASCII``): per sequence, its run of lead bytes and, for
    /// each continuation byte, the index of its range in ``continuationRanges``.
    static let plainSequences: [(leads: ClosedRange<UInt8>, continuations: [Int])] = plainSpellings.sequences

    /// The ranges the continuation bytes of ``plainSequences`` take, each once.
    static let continuationRanges: [ClosedRange<UInt8>] = plainSpellings.ranges

    private static let plainSpellings: (sequences: [(leads: ClosedRange<UInt8>, continuations: [Int])], ranges: [ClosedRange<UInt8>]) = {
        var ranges: [ClosedRange<UInt8>] = []
        let sequences = VocabularyIndex.plainTextBeyondASCII.flatMap(UTF8Sequences.of).map { sequence in
            let continuations = sequence.dropFirst().map { range in
                if let index = ranges.firstIndex(of: range) { return index }
                ranges.append(range)
                return ranges.count - 1
            }
            return (leads: sequence[0], continuations: continuations)
        }
        return (sequences, ranges)
    }()

    /// Where any one plain-text character leads from `state`, when they all lead to the same state
    /// (``dead`` included) — as inside a string whose characters are only counted, or free. Then
    /// a plain-text token is allowed exactly when the chain of such states is long enough for its
    /// character count. `nil` when characters lead to different states.
    mutating func plainTextTarget(_ state: Int32) -> Int32? {
        let index = Int(state)
        if walkInfo[index].plainTarget == Self.unknown { walkInfo[index].plainTarget = computePlainTextTarget(state) ?? Self.mixed }
        let target = walkInfo[index].plainTarget
        return target == Self.mixed ? nil : target
    }

    /// In a state where plain-text characters are only counted, how many of them the chain of
    /// states from `state` allows, up to ``plainTextLimit`` (reached when the chain loops, or
    /// meets a state that allows any plain text, as one where no string of plain-text characters
    /// leads out of the grammar); `nil` when characters matter somewhere along it (as in a
    /// pattern). Remembered per state.
    /// A state with a string interior has the run of the interior's representative, which reads
    /// plain text alike (the chain of states beyond it is built once for every such state).
    mutating func plainTextRun(_ state: Int32) -> Int? {
        let index = Int(state)
        if plainRuns[index] == Self.unknown {
            if let interior = stringInterior(state), case let representative = interiorRepresentative(interior), representative != state {
                plainRuns[index] = plainTextRun(representative).map(Int32.init) ?? Self.mixed
            } else {
                plainRuns[index] = computePlainTextRun(state)
            }
        }
        let run = plainRuns[index]
        return run == Self.mixed ? nil : Int(run)
    }

    /// Per state: its ``WalkInfo``. Read through a plain pointer in mask walks; it moves when
    /// states are added.
    var walkInfoBase: UnsafeMutablePointer<WalkInfo> { walkInfo.base }

    /// What a mask walk reads of a state, to take a plain-text subtree whole without reading it.
    struct WalkInfo {
        /// Its plain-text target (see ``plainTextTarget(_:)``), ``unknown`` until found out, or a
        /// negative value when characters lead to different states. A state whose target is
        /// itself allows plain text of any length.
        var plainTarget: Int32
        /// Its ``safeGroups(_:)`` as bits with ``knownGroups``, or 0 until found out: a subtree
        /// whose groups below `g` satisfy `g & ~safeGroups == 0` is allowed whole. Every group
        /// from the start (``anyPlainText``) where one of its NFA states outlives any plain text
        /// (``ByteNFA/State/absorbsPlainText``), whatever its other states do.
        var safeGroups: UInt32

        static let knownGroups: UInt32 = 1 << 16
        static let anyPlainText: UInt32 = knownGroups | 0xFFFF
    }

    private mutating func computePlainTextRun(_ state: Int32) -> Int32 {
        var allowed: Int32 = 0
        var current = state
        // In a string interior, the states of the chain represent theirs, so that the runs of
        // other states with those interiors extend this chain rather than build their own.
        let inInterior = stringInterior(state) != nil
        while allowed < plainTextLimit {
            if walkInfo[Int(current)].safeGroups == WalkInfo.anyPlainText { return plainTextLimit }
            guard let next = plainTextTarget(current) else {
                // Characters lead to different states, none of them out of the grammar (as in a
                // name that a pattern is searched in): any plain text is allowed.
                return safeGroups(current) == UInt16.max ? plainTextLimit : Self.mixed
            }
            if next < 0 { break }
            allowed += 1
            if next == current { return plainTextLimit }
            if inInterior { _ = stringInterior(next) }
            current = next
        }
        return allowed
    }

    private mutating func computePlainTextTarget(_ state: Int32) -> Int32? {
        let row = Int(state) * width
        // Bytes of one class lead to the same state: one entry per class is compared. Reading a
        // byte computes the row, and rows may move whenever a state is built.
        let target = next(state, UInt8(ascii: "a"))
        for byteClass in plainClasses.ascii where rowBase[row + byteClass] != target { return nil }
        for (sequence, classes) in zip(Self.plainSequences, plainClasses.leads) {
            for byteClass in classes {
                var current = rowBase[row + byteClass]
                for range in sequence.continuations {
                    guard let following = commonTarget(current, range) else { return nil }
                    current = following
                }
                if current != target { return nil }
            }
        }
        return target
    }

    /// The state every byte of continuation range `range` leads to from `from`, or `nil` when
    /// they differ; remembered per state.
    mutating func commonTarget(_ from: Int32, _ range: Int) -> Int32? {
        guard from >= 0 else { return from }
        let slot = Int(from) * Self.continuationRanges.count + range
        if commonTargets[slot] == Self.unknown {
            let first = next(from, Self.continuationRanges[range].lowerBound)
            let row = Int(from) * width
            var common = first
            for byteClass in plainClasses.continuations[range] where rowBase[row + byteClass] != first {
                common = Self.mixed
                break
            }
            commonTargets[slot] = common
        }
        let common = commonTargets[slot]
        return common == Self.mixed ? nil : common
    }

    /// The byte classes of the bytes that plain text is checked on, each class once.
    struct PlainTextClasses {
        /// The printable ASCII bytes but `"` and `\`.
        var ascii: [Int] = []
        /// Per sequence of ``plainSequences``, and per range of ``continuationRanges``.
        var leads: [[Int]] = []
        var continuations: [[Int]] = []

        init(classOf: UnsafeMutablePointer<UInt8>) {
            func classes(_ bytes: some Sequence<UInt8>) -> [Int] {
                var seen: [Int] = []
                for byte in bytes where !seen.contains(Int(classOf[Int(byte)])) { seen.append(Int(classOf[Int(byte)])) }
                return seen
            }
            ascii = classes((UInt8(0x20)...0x7F).filter { $0 != 0x22 && $0 != 0x5C })
            leads = LazyDFA.plainSequences.map { classes($0.leads) }
            continuations = LazyDFA.continuationRanges.map { classes($0) }
        }
    }
}
