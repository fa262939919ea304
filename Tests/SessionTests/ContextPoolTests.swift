import Foundation
import Testing

@testable import GuidedGeneration

/// While a load lasts the pool keeps as many contexts as the load had in use at once, so that a
/// request arriving as another ends reuses the context that ended; once quiet, it keeps one.
@Suite struct ContextPoolTests {
    @Test func aLoadKeepsAsManyContextsAsItHadInUse() {
        let pool = ContextPool(settleDelay: .never)
        let taken = (0..<3).map { pool.take(for: [Int32($0)]) }
        for cache in taken { pool.giveBack(cache) }
        #expect(pool.idleCount == 3)
        // A request of the same load takes an idle context, not a new one.
        let next = pool.take(for: [7])
        #expect(taken.contains { $0 === next })
        pool.giveBack(next)
        #expect(pool.idleCount == 3)
    }

    @Test func aQuietPoolKeepsTheMostRecentlyUsedContext() {
        let pool = ContextPool(settleDelay: .never)
        let taken = (0..<4).map { pool.take(for: [Int32($0)]) }
        for cache in taken { pool.giveBack(cache) }
        pool.settle()
        #expect(pool.idleCount == 1)
        #expect(pool.take(for: [9]) === taken[3])
    }

    @Test func theNextLoadCountsItsOwnPeak() {
        let pool = ContextPool(settleDelay: .never)
        for cache in (0..<4).map({ pool.take(for: [Int32($0)]) }) { pool.giveBack(cache) }
        pool.settle()
        // One request at a time now: one context is enough.
        for _ in 0..<3 {
            let first = pool.take(for: [1])
            let second = pool.take(for: [2])
            pool.giveBack(first)
            pool.giveBack(second)
        }
        #expect(pool.idleCount == 2)
    }

    /// A request that begins like an idle context's conversation (the same instructions) and
    /// does not continue it gets a new context, with that beginning copied rather than computed;
    /// the idle one stays as it was, and a follow-up of its conversation takes it.
    @Test func aRequestThatBeginsAlikeCopiesTheBeginning() throws {
        let model = ScriptedModel()
        let runtime = ModelRuntime(model: model, contextSize: 256)
        let pool = ContextPool(settleDelay: .never)
        let instructions = model.tokenize("<|system|>Answer briefly.<|end|><|user|>", parsingSpecialTokens: true)
        let conversation = instructions + model.tokenize("How are you this morning?<|end|><|assistant|>Fine.<|end|>", parsingSpecialTokens: true)
        let first = pool.take(for: conversation, runtime: runtime)
        try first.lock.withLock { _ = try first.load(conversation, runtime: runtime) }
        pool.giveBack(first)
        let computed = model.evaluatedTokenCount

        let question = instructions + model.tokenize("What is the weather like today?<|end|><|assistant|>", parsingSpecialTokens: true)
        let second = pool.take(for: question, runtime: runtime)
        #expect(second !== first)
        #expect(second.tokens == instructions)
        #expect(model.evaluatedTokenCount == computed)
        #expect(pool.idleCount == 1)
        #expect(first.tokens == conversation)

        let followUp = conversation + model.tokenize("<|user|>And now?<|end|><|assistant|>", parsingSpecialTokens: true)
        #expect(pool.take(for: followUp, runtime: runtime) === first)
        #expect(pool.idleCount == 0)
    }

    @Test func settlingWhileARequestRunsChangesNothing() {
        let pool = ContextPool(settleDelay: .never)
        let first = pool.take(for: [1])
        let second = pool.take(for: [2])
        let third = pool.take(for: [3])
        pool.giveBack(first)
        pool.giveBack(second)
        pool.settle()
        #expect(pool.idleCount == 2)
        pool.giveBack(third)
        pool.settle()
        #expect(pool.idleCount == 1)
    }
}
