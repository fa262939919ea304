import Foundation

/// A session's context on the model: its KV cache and the tokens in it, so that a request
/// whose conversation begins like the previous one computes only what is new.
///
/// Requests and prewarming take ``lock`` while they use it.
final class ContextCache: @unchecked Sendable {
    let lock = NSLock()
    private var context: (any LanguageModelContext)?
    /// The tokens in the cache, in order, and those written after them that it has not read
    /// (``pause(unread:)``).
    private(set) var tokens: [Int32] = []

    init() {}

    /// A new cache that begins with the first `count` tokens of `donor`'s, copied from its
    /// context rather than computed (at most those it has read); `nil` when the model's contexts
    /// cannot copy. Takes `donor`'s lock; `donor` stays as it is.
    init?(copying count: Int, of donor: ContextCache, runtime: ModelRuntime) throws {
        donor.lock.lock()
        defer { donor.lock.unlock() }
        guard let source = donor.context else { return nil }
        let count = min(count, source.count, donor.tokens.count)
        guard count > 0 else { return nil }
        let context = try runtime.model.makeContext(size: runtime.contextSize)
        guard context.copyPrefix(count, from: source) else { return nil }
        self.context = context
        tokens = Array(donor.tokens[..<count])
    }

    /// Brings the cache to `prompt` (reusing its longest common prefix) and returns the logits
    /// that follow it, with how many tokens were reused. Call with ``lock`` held.
    func load(_ prompt: [Int32], runtime: ModelRuntime) throws -> (logits: UnsafeBufferPointer<Float>, reused: Int) {
        let context = try self.context ?? runtime.model.makeContext(size: runtime.contextSize)
        self.context = context
        var common = min(sharedLength(prompt), context.count)
        // At least one token is evaluated, for its logits.
        if common == prompt.count { common -= 1 }
        context.truncate(to: common)
        tokens = Array(prompt[..<common])
        let logits = try context.evaluate(Array(prompt[common...]))
        tokens = prompt
        return (logits, common)
    }

    /// How many tokens at the start of `prompt` the cache holds, and how many it holds.
    func commonPrefixLength(with prompt: [Int32]) -> (common: Int, count: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (sharedLength(prompt), tokens.count)
    }

    /// How many tokens at the start of `prompt` are those at the start of ``tokens``.
    private func sharedLength(_ prompt: [Int32]) -> Int {
        var common = 0
        let limit = min(tokens.count, prompt.count)
        while common < limit, tokens[common] == prompt[common] { common += 1 }
        return common
    }

    /// Drops the cache after its first `count` tokens. Call with ``lock`` held.
    func truncate(to count: Int) {
        guard count < tokens.count else { return }
        context?.truncate(to: count)
        tokens.removeLast(tokens.count - count)
    }

    /// Says that no tokens follow until the next request (``LanguageModelContext/pause(unread:)``):
    /// `unread`, written last, are kept in ``tokens`` without being read into the context, which
    /// ``load(_:runtime:)`` reads with the next prompt that continues them. Call with ``lock`` held.
    func pause(unread: [Int32] = []) {
        tokens += unread
        context?.pause(unread: unread)
    }

    /// Appends `more` to the cache and returns the logits that follow. Call with ``lock`` held,
    /// after ``load(_:runtime:)``.
    func append(_ more: [Int32]) throws -> UnsafeBufferPointer<Float> {
        guard let context else { throw LanguageModelSession.GenerationError.assetsUnavailable(.init(debugDescription: "No context")) }
        let logits = try context.evaluate(more)
        tokens += more
        return logits
    }
}
