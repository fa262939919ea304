import Foundation
@testable import LlamaInference
import Testing
import TestSupport

/// The GGUF reader: files the tests write, the real model, and truncated or corrupted copies.
@Suite(.threadOfItsOwn) struct GGUFFileTests {
    func read(_ bytes: [UInt8]) -> Result<GGUFFile, GGUFError> {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 64)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
        return Result { () throws(GGUFError) in
            try GGUFFile(bytes: UnsafeRawBufferPointer(rebasing: copy[0..<bytes.count])) { copy.deallocate() }
        }
    }

    @Test func readsAWrittenFile() throws {
        let bytes = GGUFWriter.file(
            metadata: [("general.architecture", "llama"), ("llama.block_count", UInt32(2)), ("tokens", ["a", "b"])],
            tensors: [("w", [4, 2], (0..<8).map(Float.init)), ("v", [3], [1, 2, 3])])
        let file = try read(bytes).get()
        #expect(file.version == 3)
        #expect(try file.string("general.architecture") == "llama")
        #expect(try file.integer("llama.block_count") == 2)
        #expect(try file.strings("tokens") == ["a", "b"])
        #expect(file.tensors.map(\.name) == ["w", "v"])
        let w = try #require(file.tensorsByName["w"])
        #expect(w.dimensions == [4, 2] && w.type == .f32 && w.byteCount == 32)
        let values = file.data(of: w).bindMemory(to: Float.self)
        #expect(Array(values) == (0..<8).map(Float.init))
        #expect(throws: GGUFError.missingKey("absent")) { try file.integer("absent") }
        #expect(throws: GGUFError.wrongType(key: "general.architecture", expected: "an integer")) { try file.integer("general.architecture") }
    }

    @Test func refusesWhatIsNotGGUF() {
        #expect(throws: GGUFError.notGGUF) { try read(Array("not a model".utf8)).get() }
        var wrongVersion = GGUFWriter.file(metadata: [], tensors: [])
        wrongVersion[4] = 9
        #expect(throws: GGUFError.unsupportedVersion(9)) { try read(wrongVersion).get() }
    }

    @Test func everyTruncationOfAWrittenFileIsAnError() {
        let bytes = GGUFWriter.file(metadata: [("k", "value"), ("n", UInt32(7))], tensors: [("t", [8], (0..<8).map(Float.init))])
        for length in 0..<bytes.count where length < bytes.count - 16 {
            if case .success = read(Array(bytes[..<length])) { Issue.record("accepted a file cut at \(length)") }
        }
    }

    @Test func hostileCountsAreRefusedWithoutHugeAllocations() {
        var writer = GGUFWriter()
        writer.integer(UInt32(0x4655_4747))
        writer.integer(UInt32(3))
        writer.integer(UInt64(0))
        writer.integer(UInt64.max)  // metadata count
        #expect(throws: GGUFError.self) { try read(writer.bytes).get() }
        let bigString = GGUFWriter.file(metadata: [("k", "v")], tensors: [])
        var corrupted = bigString
        // The length of the key "k" becomes enormous.
        corrupted.replaceSubrange(24..<32, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: GGUFError.self) { try read(corrupted).get() }
        let tensor = GGUFWriter.file(metadata: [], tensors: [("t", [8], (0..<8).map(Float.init))])
        var outside = tensor
        // The tensor's offset points past the end of the file.
        let offsetPosition = 24 + 8 + 1 + 4 + 8 + 4
        outside.replaceSubrange(offsetPosition..<offsetPosition + 8, with: [0, 1, 0, 0, 0, 0, 0, 0])
        #expect(throws: GGUFError.self) { try read(outside).get() }
    }

    @Test func readsTheDefaultModel() throws {
        let file = try TestModel.require()
        #expect(try file.string("general.architecture") == "llama")
        #expect(try file.integer("llama.block_count") == 30)
        #expect(try file.integer("llama.embedding_length") == 576)
        #expect(file.tensorsByName["token_embd.weight"]?.type == .q8_0)
        #expect(file.tensorsByName["blk.0.attn_q.weight"]?.type == .q4_1)
        #expect(file.tensorsByName["output.weight"] == nil)
    }

    @Test func samplingAdviceIsReadWhereUsable() throws {
        let bytes = GGUFWriter.file(
            metadata: [
                ("general.sampling.temp", Float(0.5)), ("general.sampling.top_p", Float(1.5)), ("general.sampling.min_p", "0.05"),
            ],
            tensors: [])
        let advice = RecommendedSampling(file: try read(bytes).get())
        // A top-p above 1 and a min-p written as text are not usable: they stay unset.
        #expect(advice == RecommendedSampling(temperature: 0.5))
        #expect(RecommendedSampling(file: try read(GGUFWriter.file(metadata: [], tensors: [])).get()) == RecommendedSampling())
        let full = GGUFWriter.file(
            metadata: [("general.sampling.temp", Float(0.25)), ("general.sampling.top_p", Float(0.5)), ("general.sampling.min_p", Float(0.125))],
            tensors: [])
        #expect(RecommendedSampling(file: try read(full).get()) == RecommendedSampling(temperature: 0.25, probabilityThreshold: 0.5, minimumRelativeProbability: 0.125))
    }

    @Test func truncatedAndCorruptedCopiesOfTheModelNeverCrash() throws {
        let file = try TestModel.require()
        let header = Array(file.bytes[0..<min(file.bytes.count, 2_000_000)])
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<60 {
            let length = Int(generator.next() % UInt64(header.count))
            if case .success = read(Array(header[..<length])) { Issue.record("accepted the model cut at \(length)") }
        }
        for _ in 0..<200 {
            var copy = header
            for _ in 0..<4 {
                let position = Int(generator.next() % 400_000)
                copy[position] ^= UInt8(1 << (generator.next() % 8))
            }
            _ = read(copy)  // an error or a file; never a crash
        }
    }
}
