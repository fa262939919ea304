import Foundation

/// Continuous batching: runs the tokens that several sequences of one model submit at the same
/// time through one forward pass, so that each weight row is decoded once for all of them.
///
/// Each caller blocks in ``evaluate(_:in:)`` on a thread of its own (its sampling and grammar
/// masks run there, in parallel with the others'). The first caller to find the model idle leads
/// the next pass: it waits for the sequences that got their logits from the last pass to submit
/// their next token (at most as long as the last pass of one token per sequence took: one left
/// behind would cost a pass of its own, and the next ones would split alike), then runs every
/// submission it has: each sequence's next token, and up to ``promptRows`` positions more for
/// prompts in order of arrival (a long prompt over several passes), up to ``rowCapacity`` in all.
/// However many sequences decode, prompts advance by as many positions per pass: requests that
/// arrive together start decoding together, rather than the last of them waiting for the others
/// to finish. Sequences join at any pass, and leave with ``pause(_:)``. A sequence's logits are the
/// same, bit for bit, as when it runs alone with ``InferenceSession/evaluate(_:)``.
public final class SequenceBatcher: @unchecked Sendable {
    /// The tokens of one sequence waiting to run.
    private final class Submission {
        let session: InferenceSession
        let tokens: [Int32]
        /// How many of `tokens` have run.
        var written = 0
        var isDone = false

        init(session: InferenceSession, tokens: [Int32]) {
            self.session = session
            self.tokens = tokens
        }
    }

    public let model: LlamaModel
    /// The most positions one pass runs.
    public let rowCapacity: Int
    /// How many positions a pass gives to prompts beyond one token of each submission: as many
    /// as llama.cpp's physical batch by default (512), so that a pass that reads prompts makes
    /// the decoding sequences wait at most that long.
    public let promptRows: Int
    /// How long a pass waits at least for the sequences of the last pass to come back with their
    /// next token (after sampling it), before it runs without them; it waits as long as the last
    /// pass of one token per sequence took when that is longer.
    public let gatheringWait: Duration
    private let condition = NSCondition()
    /// Guarded by `condition`: the submissions waiting or in part run, whether a pass is being
    /// led, and the sequences served by the last pass that have not submitted again.
    private var pending: [Submission] = []
    private var isRunning = false
    private var returning: Set<ObjectIdentifier> = []
    /// Guarded by `condition`: how long the last pass of one token per sequence took, in seconds.
    private var decodeSeconds = 0.0
    /// Only the leader of a pass touches it, or a caller holding the lock while none leads; it
    /// grows with the positions a pass runs, and shrinks back when the batcher is idle.
    private var pass: ForwardPass
    private let contextLength: Int
    /// Guarded by `condition`: how many passes have run, and how many positions they ran.
    private var passesRun = 0
    private var positionsRun = 0

    /// How many passes have run, for measurements.
    public var passCount: Int { condition.withLock { passesRun } }
    /// How many positions the passes ran, for measurements: with ``passCount``, how full they were.
    public var positionCount: Int { condition.withLock { positionsRun } }

    /// A batcher over `model`, for sequences of up to `contextLength` positions (longer ones make
    /// room when they first submit).
    public init(
        model: LlamaModel, contextLength: Int, rowCapacity: Int = 1024, promptRows: Int = 512,
        gatheringWait: Duration = .milliseconds(2)
    ) {
        self.model = model
        self.rowCapacity = max(1, rowCapacity)
        self.promptRows = max(1, promptRows)
        self.gatheringWait = gatheringWait
        self.contextLength = max(1, contextLength)
        pass = ForwardPass(model: model, rowCapacity: Self.room(for: 1, within: self.rowCapacity), contextLength: self.contextLength)
    }

    /// Room for `rows` positions, in whole batches (one at least), within `capacity`.
    private static func room(for rows: Int, within capacity: Int) -> Int {
        let batches = max(1, (rows + InferenceSession.batchSize - 1) / InferenceSession.batchSize)
        return min(capacity, batches * InferenceSession.batchSize)
    }

    /// Runs `tokens` through the model after what `session` holds, with any other sequences
    /// submitted meanwhile; `session.logits` then holds the logits that follow the last one.
    /// Blocks until they are computed. A session must not be used by two callers at once.
    public func evaluate(_ tokens: [Int32], in session: InferenceSession) throws(InferenceSession.InferenceError) {
        precondition(session.model === model, "a session runs through its own model's batcher")
        try session.validate(tokens)
        guard !tokens.isEmpty else { return }
        let submission = Submission(session: session, tokens: tokens)
        condition.lock()
        defer { condition.unlock() }
        pending.append(submission)
        condition.broadcast()
        while !submission.isDone {
            if isRunning {
                condition.wait()
            } else {
                lead()
            }
        }
    }

    /// Says that `session` submits nothing more until its next request: the next pass does not
    /// wait for it.
    public func pause(_ session: InferenceSession) {
        condition.lock()
        defer { condition.unlock() }
        if returning.remove(ObjectIdentifier(session)) != nil { condition.broadcast() }
        shrinkWhenIdle()
    }

    /// How many positions the pass has room for now, for tests.
    var passRoom: Int { condition.withLock { pass.rowCapacity } }

    /// Gives back the room that prompts made the pass grow to, once nothing runs, waits or is
    /// expected back; called with the lock held.
    private func shrinkWhenIdle() {
        let first = Self.room(for: 1, within: rowCapacity)
        guard !isRunning, pending.isEmpty, returning.isEmpty, pass.rowCapacity > first else { return }
        pass = ForwardPass(model: model, rowCapacity: first, contextLength: contextLength)
    }

    /// Leads one pass; called with the lock held, and returns with it held.
    private func lead() {
        isRunning = true
        let wait = gatheringWait.components
        let deadline = Date(timeIntervalSinceNow: max(Double(wait.seconds) + Double(wait.attoseconds) * 1e-18, decodeSeconds))
        while !returning.isSubset(of: Set(pending.map { ObjectIdentifier($0.session) })), condition.wait(until: deadline) {}
        let batch = positions(from: pending)
        condition.unlock()
        let started = DispatchTime.now().uptimeNanoseconds
        pass.run(batch.rows, logitCount: batch.logits)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) * 1e-9
        condition.lock()
        if batch.rows == batch.taken.count { decodeSeconds = seconds }
        passesRun += 1
        positionsRun += batch.rows
        returning = []
        for (submission, count) in batch.taken {
            submission.session.advance(by: count)
            submission.written += count
            if submission.written == submission.tokens.count {
                submission.isDone = true
                returning.insert(ObjectIdentifier(submission.session))
            }
        }
        pending.removeAll { $0.isDone }
        isRunning = false
        shrinkWhenIdle()
        condition.broadcast()
    }

    /// Fills the pass with `submissions`: one token of each first (the decoding sequences, whose
    /// next token is all they have), then up to ``promptRows`` more of the rest of each in order,
    /// up to ``rowCapacity`` in all.
    private func positions(from submissions: [Submission]) -> (rows: Int, logits: Int, taken: [(Submission, Int)]) {
        var shares = submissions.map { _ in 0 }
        var rows = 0
        for index in submissions.indices where rows < rowCapacity {
            shares[index] = 1
            rows += 1
        }
        let limit = min(rowCapacity, rows + promptRows)
        for (index, submission) in submissions.enumerated() where rows < limit && shares[index] > 0 {
            let more = min(submission.tokens.count - submission.written - shares[index], limit - rows)
            shares[index] += more
            rows += more
        }
        if rows > pass.rowCapacity {
            pass = ForwardPass(model: model, rowCapacity: Self.room(for: rows, within: rowCapacity), contextLength: contextLength)
        }
        var row = 0
        var logits = 0
        var taken: [(Submission, Int)] = []
        for (index, submission) in submissions.enumerated() where shares[index] > 0 {
            let session = submission.session
            pass.reserve(contextLength: session.contextLength)
            for offset in 0..<shares[index] {
                let at = submission.written + offset
                pass.positions[row] = session.position(ofToken: submission.tokens[at], at: at, of: submission.tokens.count, after: submission.written)
                row += 1
            }
            if submission.written + shares[index] == submission.tokens.count {
                pass.logitTargets[logits] = LogitTarget(row: row - 1, destination: session.logitsStart)
                logits += 1
            }
            taken.append((submission, shares[index]))
        }
        return (rows, logits, taken)
    }
}
