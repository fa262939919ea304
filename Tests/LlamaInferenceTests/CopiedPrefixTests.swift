import Testing
import TestSupport

@testable import LlamaInference

/// A prefix copied from another session's cache gives the logits that computing it gives, bit
/// for bit; sessions that cannot share one refuse the copy.
@Suite struct CopiedPrefixTests {
    @Test func aCopiedPrefixGivesTheLogitsOfAComputedOne() throws {
        let model = try LlamaModel(file: try TestModel.require())
        let prefix: [Int32] = [1, 504, 3575, 314, 260]
        let donor = InferenceSession(model: model, contextLength: 64)
        try donor.evaluate(prefix + [1345, 28, 9690])
        let copied = InferenceSession(model: model, contextLength: 64)
        try copied.evaluate([1402, 504])
        #expect(copied.copyPrefix(prefix.count, from: donor))
        #expect(copied.position == prefix.count)
        try copied.evaluate([1402, 28])
        let computed = InferenceSession(model: model, contextLength: 64)
        try computed.evaluate(prefix)
        try computed.evaluate([1402, 28])
        let differing = zip(copied.logits, computed.logits).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        #expect(differing == 0, "\(differing) logits differ")
        // The donor is unchanged: it continues as before.
        #expect(donor.position == prefix.count + 3)
    }

    @Test func sessionsThatDifferRefuseTheCopy() throws {
        let model = try LlamaModel(file: try TestModel.require())
        let donor = InferenceSession(model: model, contextLength: 64)
        try donor.evaluate([1, 504, 3575])
        let session = InferenceSession(model: model, contextLength: 64)
        #expect(!session.copyPrefix(4, from: donor))
        #expect(!session.copyPrefix(2, from: InferenceSession(model: model, contextLength: 32)))
        #expect(!donor.copyPrefix(2, from: donor))
        #expect(session.position == 0)
    }
}
