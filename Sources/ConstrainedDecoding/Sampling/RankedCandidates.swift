/// The candidates of one draw, put in order only as far as the sampling stages read them.
///
/// Every stage reads the head of the order alone: top-k its first k candidates, min-p those above
/// its floor, top-p and the draw the most likely ones until their share is reached. So the head
/// is sorted a band of logits at a time (within 1 of the best logit, then 2, 4, 8 and so on),
/// and the rest stays as it was gathered, where sorting a whole vocabulary's worth of candidates
/// for every token took milliseconds. The order is ``CandidateOrder``'s: descending logits, the
/// lowest id first among equals. Totals over every candidate are summed in the order gathered.
struct RankedCandidates: Sendable {
    /// The first `sortedCount` in order, then the rest, each below every one of the head; the
    /// first `count` alone are candidates.
    private var candidates: [TokenCandidate] = []
    /// The candidates' logits, as gathered, for the totals over all of them.
    private var gathered: [Float] = []
    /// How many candidates there are.
    private(set) var count = 0
    /// How many candidates lead the order, sorted.
    private(set) var sortedCount = 0
    /// The highest logit.
    private(set) var top: Float = 0
    /// The lowest logit a candidate can have (the floor they were gathered at).
    private var floor = -Float.infinity
    /// How far below `top` the head reaches: every candidate at or above `top - reach` is in it.
    private var reach: Float = 0
    private var order = CandidateOrder()

    /// No candidates; ``gather(_:allowed:floor:top:)`` fills them.
    init() {}

    /// `candidates`, already most likely first (as the stages applied on arrays take them).
    init(sorted candidates: [TokenCandidate]) {
        self.candidates = candidates
        gathered = candidates.map(\.logit)
        count = candidates.count
        sortedCount = candidates.count
        top = candidates.first?.logit ?? 0
        reach = .infinity
    }

    /// Keeps the first of `candidates` (already in order) that `kept` counts, given them ranked
    /// and their number: a truncation stage applied to an array.
    static func truncate(_ candidates: inout [TokenCandidate], keeping kept: (inout RankedCandidates, Int) -> Int) {
        var ranked = RankedCandidates(sorted: candidates)
        candidates.removeLast(candidates.count - kept(&ranked, candidates.count))
    }

    /// The candidate at `index` in the order, within the sorted head.
    subscript(index: Int) -> TokenCandidate { candidates[index] }

    /// Takes as candidates the tokens of `logits` at or above `floor` that `allowed` holds (all
    /// when `nil`); `top` is the highest of their logits. Nothing is sorted yet.
    mutating func gather(_ logits: UnsafeBufferPointer<Float>, allowed: TokenBitset?, floor: Float, top: Float) {
        if candidates.count < logits.count {
            candidates = [TokenCandidate](repeating: TokenCandidate(id: 0, logit: 0), count: logits.count)
            gathered = [Float](repeating: 0, count: logits.count)
        }
        count = candidates.withUnsafeMutableBufferPointer { candidates in
            gathered.withUnsafeMutableBufferPointer { gathered in
                var count = 0
                func take(_ id: Int) {
                    let logit = logits[id]
                    guard logit >= floor else { return }
                    candidates[count] = TokenCandidate(id: Int32(truncatingIfNeeded: id), logit: logit)
                    gathered[count] = logit
                    count += 1
                }
                if let allowed {
                    allowed.words.withUnsafeBufferPointer { words in
                        for (index, word) in words.enumerated() where word != 0 {
                            var bits = word
                            while bits != 0 {
                                let id = index &* 64 &+ bits.trailingZeroBitCount
                                guard id < logits.count else { return }
                                take(id)
                                bits &= bits &- 1
                            }
                        }
                    }
                } else {
                    for id in logits.indices { take(id) }
                }
                return count
            }
        }
        sortedCount = 0
        self.top = top
        self.floor = floor
        reach = 0
    }

    /// Sorts the head until it holds at least `count` candidates, or all of them.
    mutating func sortHead(count wanted: Int) {
        while sortedCount < min(wanted, count) { extendHead() }
    }

    /// Sorts the head until it holds every candidate at or above `logit`.
    mutating func sortHead(downTo logit: Float) {
        while sortedCount < count, top - reach > logit { extendHead() }
    }

    /// The candidate's weight `exp((logit - top) / temperature)` at `index` (below ``count``;
    /// ``SoftmaxWeight``), sorting the head further when `index` lies beyond it.
    mutating func weight(at index: Int, temperature: Double) -> Double {
        while index >= sortedCount, sortedCount < count { extendHead() }
        return Double(SoftmaxWeight.weight((candidates[index].logit - top) * Float(1 / temperature)))
    }

    /// The sum of the weights of the first `kept` candidates: of every candidate, in the order
    /// gathered, when `kept` is all of them; else of the sorted head's first `kept`.
    mutating func total(of kept: Int, temperature: Double) -> Double {
        if kept == count {
            return gathered.withUnsafeBufferPointer { logits in
                SoftmaxWeight.total(UnsafeBufferPointer(rebasing: logits[..<kept]), top: top, inverseTemperature: Float(1 / temperature))
            }
        }
        var total = 0.0
        for index in 0..<kept { total += weight(at: index, temperature: temperature) }
        return total
    }

    /// Moves the next band of logits (twice as wide as the last, or all that are left once it
    /// reaches the floor) to the end of the head, and sorts it there.
    private mutating func extendHead() {
        let start = sortedCount
        guard start < count else { return }
        reach = reach == 0 ? 1 : reach * 2
        let band = top - reach
        let count = self.count
        var end = count
        if band > floor {
            end = candidates.withUnsafeMutableBufferPointer { candidates in
                var next = start
                for index in start..<count where candidates[index].logit >= band {
                    candidates.swapAt(next, index)
                    next += 1
                }
                return next
            }
        } else {
            reach = .infinity
        }
        order.sort(&candidates, in: start..<end)
        sortedCount = end
    }
}
