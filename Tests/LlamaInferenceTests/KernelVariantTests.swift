import Foundation
import GuidedKernels
import Testing
import TestSupport

@testable import LlamaInference

/// Every kernel variant this CPU runs against the portable loops, on random blocks of each weight
/// type: the same quantized activations, and products and attention equal but for the order in
/// which floats are added.
@Suite struct KernelVariantTests {
    static let weightTypes: [GGMLType] = [.q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .q2_K, .q3_K, .q4_K, .q5_K, .q6_K, .iq4_nl]

    /// Where each type's blocks keep their half-precision scales and minimums.
    static func halfOffsets(_ type: GGMLType) -> [Int] {
        switch type {
        case .q4_1, .q5_1, .q4_K, .q5_K: [0, 2]
        case .q6_K: [208]
        case .q3_K: [108]
        case .q2_K: [80, 82]
        default: [0]
        }
    }

    /// `rows` rows of `blocks × 32` random weights of `type`, with scales (and minimums) between
    /// about -0.06 and 0.06.
    static func matrix(_ type: GGMLType, rows: Int, blocks: Int, generator: inout SeededGenerator) -> [UInt8] {
        let typeBlocks = rows * blocks * 32 / type.blockSize
        var bytes = (0..<typeBlocks * type.blockBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for block in 0..<typeBlocks {
            for offset in halfOffsets(type) {
                // Sign, exponent 5 to 11 (2^-10 to 2^-4), any mantissa.
                let bits = UInt16.random(in: 0...1, using: &generator) << 15 | UInt16.random(in: 5...11, using: &generator) << 10
                    | UInt16.random(in: 0...1023, using: &generator)
                bytes[block * type.blockBytes + offset] = UInt8(bits & 0xFF)
                bytes[block * type.blockBytes + offset + 1] = UInt8(bits >> 8)
            }
        }
        return bytes
    }

    /// The bytes of a row of `blocks × 32` weights of `type`.
    static func rowBytes(_ type: GGMLType, blocks: Int) -> Int {
        blocks * 32 / type.blockSize * type.blockBytes
    }

    /// Quantizes `input` with `variant`, in the format that the weights of `type` take (or in
    /// `format`), and multiplies `matrix` by its `vectorCount` vectors.
    static func products(
        _ variant: KernelVariant, type: GGMLType, matrix: [UInt8], rows: Int, blocks: Int, input: [Float], vectorCount: Int,
        rowRange: Range<Int>, format: ActivationFormat? = nil
    ) -> (values: [Int8], sums: [Float], outputs: [Float]) {
        var quantized = QuantizedVector(capacity: input.count)
        defer { quantized.deallocate() }
        var outputs = [Float](repeating: 0, count: vectorCount * rows)
        input.withUnsafeBufferPointer { input in
            quantized.load(input.baseAddress!, count: input.count)
            quantized.prepare(format ?? ActivationFormat(weights: type), kernels: variant.table)
        }
        matrix.withUnsafeBytes { matrix in
            outputs.withUnsafeMutableBufferPointer { outputs in
                variant.table.pointee.multiply(
                    Int32(type.rawValue), matrix.baseAddress!, rowBytes(type, blocks: blocks), blocks, rowRange.lowerBound,
                    rowRange.upperBound, quantized.vectors, vectorCount, outputs.baseAddress!, rows)
            }
        }
        return (Array(UnsafeBufferPointer(start: quantized.values, count: input.count)),
            Array(UnsafeBufferPointer(start: quantized.sums, count: input.count / 32)), outputs)
    }

    @Test func thePortableVariantRunsEverywhere() {
        #expect(KernelVariant.portable.isSupported)
        #expect(KernelVariant.supported.last == .portable)
        #expect(KernelVariant.supported.contains(KernelVariant.preferred))
    }

    /// What the CPU reports through the kernel of the operating system agrees with the variants
    /// found supported.
    @Test func theVariantsFollowTheCPUFlags() throws {
        #if arch(x86_64) && os(Linux)
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(info.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
        #expect(KernelVariant.avx2.isSupported == flags.isSuperset(of: ["avx2", "fma", "f16c"]))
        #expect(KernelVariant.avx512.isSupported == flags.isSuperset(of: ["avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni"]))
        #expect(!KernelVariant.neon.isSupported)
        #elseif arch(arm64)
        #expect(KernelVariant.neon.isSupported)
        #expect(!KernelVariant.avx2.isSupported && !KernelVariant.avx512.isSupported)
        #endif
    }

    @Test(arguments: KernelVariant.supported)
    func productsEqualThePortableOnes(_ variant: KernelVariant) {
        var generator = SeededGenerator(seed: 7)
        for type in Self.weightTypes {
            // K-quant rows are whole blocks of 256.
            // Batches of 8 and more take the grouped paths (AVX-512: two blocks per register, an
            // odd last block apart).
            let shapes = type.blockSize == 256
                ? [(37, 16, 1), (19, 48, 1), (23, 8, 5), (9, 8, 8), (7, 24, 17)] : [(37, 18, 1), (19, 48, 1), (23, 18, 5), (9, 2, 8), (11, 7, 9), (5, 3, 16)]
            for (rows, blocks, vectorCount) in shapes {
                let matrix = Self.matrix(type, rows: rows, blocks: blocks, generator: &generator)
                // Activations of a transformer's spread, with an outlier now and then.
                let input = (0..<vectorCount * blocks * 32).map { index in
                    Float.random(in: -2...2, using: &generator) * (index % 97 == 0 ? 40 : 1)
                }
                // The sum of the terms' magnitudes of each output (|weight| × |input|): float sums
                // differ in their last bits relative to it, not to the result, which cancellation
                // can make small.
                var magnitudes = [Float](repeating: 0, count: vectorCount * rows)
                var weights = [Float](repeating: 0, count: blocks * 32)
                for row in 0..<rows {
                    matrix.withUnsafeBytes { bytes in
                        weights.withUnsafeMutableBufferPointer { output in
                            BlockDecoder.decode(type, bytes.baseAddress! + row * Self.rowBytes(type, blocks: blocks), count: blocks * 32, into: output.baseAddress!)
                        }
                    }
                    for vector in 0..<vectorCount {
                        magnitudes[vector * rows + row] = zip(weights, input[vector * blocks * 32..<(vector + 1) * blocks * 32]).reduce(0) { $0 + abs($1.0 * $1.1) }
                    }
                }
                for rowRange in [0..<rows, 3..<rows - 2] {
                    let expected = Self.products(.portable, type: type, matrix: matrix, rows: rows, blocks: blocks, input: input, vectorCount: vectorCount, rowRange: rowRange)
                    let actual = Self.products(variant, type: type, matrix: matrix, rows: rows, blocks: blocks, input: input, vectorCount: vectorCount, rowRange: rowRange)
                    #expect(actual.values == expected.values, "\(variant), \(type): quantized values")
                    for (index, sum) in expected.sums.enumerated() {
                        #expect(abs(actual.sums[index] - sum) <= 1e-4 * max(1, abs(sum)), "\(variant), \(type): block sum \(index)")
                    }
                    for (index, value) in expected.outputs.enumerated() {
                        let row = index % rows
                        if !rowRange.contains(row) {
                            #expect(actual.outputs[index] == 0, "\(variant), \(type): row \(row) outside the range was written")
                            continue
                        }
                        let tolerance = 1e-4 * max(1, abs(value)) + 1e-6 * magnitudes[index]
                        #expect(abs(actual.outputs[index] - value) <= tolerance, "\(variant), \(type), \(rows)x\(blocks), \(vectorCount) vectors: output \(index) \(actual.outputs[index]) against \(value)")
                    }
                }
            }
        }
    }

    /// A row's product with a vector is the same float, bit for bit, whether the vector comes alone
    /// (decoding) or in a batch (a prompt), as llama.cpp's are: its products of a batch are those
    /// of one vector at a time. Otherwise a prompt read at once and read token by token would give
    /// different logits. Shapes cover the grouped paths, the vectors left over after the groups, a
    /// last row tile of fewer rows, an odd number of blocks (AVX-512 pairs them), and a batch of
    /// more vectors than the x86-64 kernels take in one pass.
    @Test(arguments: KernelVariant.supported)
    func batchProductsAreThoseOfOneVectorAtATime(_ variant: KernelVariant) {
        var generator = SeededGenerator(seed: 11)
        for type in Self.weightTypes {
            let rows = 67
            for blocks in type.blockSize == 256 ? [8, 64] : [21, 64] {
                let matrix = Self.matrix(type, rows: rows, blocks: blocks, generator: &generator)
                for vectorCount in [2, 4, 5, 8, 9, 17, 70] {
                    let length = blocks * 32
                    let input = (0..<vectorCount * length).map { _ in Float.random(in: -2...2, using: &generator) }
                    let batch = Self.products(variant, type: type, matrix: matrix, rows: rows, blocks: blocks, input: input, vectorCount: vectorCount, rowRange: 0..<rows)
                    var differing = 0
                    for vector in 0..<vectorCount {
                        let single = Self.products(
                            variant, type: type, matrix: matrix, rows: rows, blocks: blocks, input: Array(input[vector * length..<(vector + 1) * length]),
                            vectorCount: 1, rowRange: 0..<rows)
                        for row in 0..<rows where single.outputs[row].bitPattern != batch.outputs[vector * rows + row].bitPattern { differing += 1 }
                    }
                    #expect(differing == 0, "\(variant), \(type), \(blocks) blocks, \(vectorCount) vectors: \(differing) products differ")
                }
            }
        }
    }

    /// The two x86-64 variants give the same products, bit for bit (they differ in how the
    /// integer products are made, not in how floats are added), so that a model's answers do not
    /// depend on whether the CPU has AVX-512.
    @Test(.enabled(if: KernelVariant.avx512.isSupported && KernelVariant.avx2.isSupported))
    func theX86VariantsGiveTheSameProducts() {
        var generator = SeededGenerator(seed: 13)
        for type in Self.weightTypes {
            let rows = 37
            for blocks in type.blockSize == 256 ? [8, 64] : [21, 64] {
                let matrix = Self.matrix(type, rows: rows, blocks: blocks, generator: &generator)
                for vectorCount in [1, 5, 9, 17] {
                    let input = (0..<vectorCount * blocks * 32).map { _ in Float.random(in: -2...2, using: &generator) }
                    let products = [KernelVariant.avx2, .avx512].map { variant in
                        Self.products(variant, type: type, matrix: matrix, rows: rows, blocks: blocks, input: input, vectorCount: vectorCount, rowRange: 0..<rows)
                            .outputs.map(\.bitPattern)
                    }
                    #expect(products[0] == products[1], "\(type), \(blocks) blocks, \(vectorCount) vectors")
                }
            }
        }
    }

    /// The portable products against products in doubles of the dequantized weights with the
    /// quantized activations (which is what the integer products compute exactly, but for Q4_1's
    /// and Q5_1's minimums, which take 16-bit block sums).
    @Test func portableProductsAreThoseOfTheDequantizedWeights() {
        var generator = SeededGenerator(seed: 11)
        for type in Self.weightTypes {
            let rows = 7, blocks = type.blockSize == 256 ? 16 : 6
            let matrix = Self.matrix(type, rows: rows, blocks: blocks, generator: &generator)
            let input = (0..<blocks * 32).map { _ in Float.random(in: -3...3, using: &generator) }
            let result = Self.products(
                .portable, type: type, matrix: matrix, rows: rows, blocks: blocks, input: input, vectorCount: 1, rowRange: 0..<rows, format: .blocks32)
            var scales = [Float](repeating: 0, count: blocks)
            // Each block's scale in 16 bits, as llama.cpp keeps it.
            for block in 0..<blocks { scales[block] = Float(Float16(input[block * 32..<(block + 1) * 32].map(abs).max()! / 127)) }
            for row in 0..<rows {
                // The weights as BlockDecoder decodes them (checked against the gguf package).
                var weights = [Float](repeating: 0, count: blocks * 32)
                matrix.withUnsafeBytes { bytes in
                    weights.withUnsafeMutableBufferPointer { output in
                        BlockDecoder.decode(type, bytes.baseAddress! + row * Self.rowBytes(type, blocks: blocks), count: blocks * 32, into: output.baseAddress!)
                    }
                }
                var expected = 0.0
                for (index, weight) in weights.enumerated() {
                    expected += Double(weight) * Double(result.values[index]) * Double(scales[index / 32])
                }
                if type == .q4_1 || type == .q5_1 {
                    // The minimums take each block's sum as llama.cpp's Q8_1 blocks keep it: the
                    // scale before its rounding times the sum of the values, in 16 bits.
                    for block in 0..<blocks {
                        let offset = row * Self.rowBytes(type, blocks: blocks) + block * type.blockBytes + 2
                        let minimum = Double(Float(Float16(bitPattern: UInt16(matrix[offset]) | UInt16(matrix[offset + 1]) << 8)))
                        let values = result.values[block * 32..<(block + 1) * 32].reduce(0) { $0 + Int($1) }
                        let largest = input[block * 32..<(block + 1) * 32].map(abs).max()!
                        expected += minimum * (Double(Float(Float16(largest / 127 * Float(values)))) - Double(scales[block]) * Double(values))
                    }
                }
                #expect(abs(Double(result.outputs[row]) - expected) <= 1e-4 * max(1, abs(expected)), "\(type), row \(row): \(result.outputs[row]) against \(expected)")
            }
        }
    }

    /// Random half-precision numbers in -1...1.
    static func randomHalves(_ count: Int, using generator: inout SeededGenerator) -> [UInt16] {
        let floats = (0..<count).map { _ in Float.random(in: -1...1, using: &generator) }
        var halves = [UInt16](repeating: 0, count: count)
        guided_halves_from_floats(floats, count, &halves)
        return halves
    }

    @Test(arguments: KernelVariant.supported)
    func attentionEqualsThePortableOne(_ variant: KernelVariant) {
        var generator = SeededGenerator(seed: 3)
        for (count, dimension, stride) in [(1, 64, 192), (10, 64, 192), (37, 128, 256), (70, 256, 256), (6, 80, 80), (5, 20, 24)] {
            let query = (0..<dimension).map { _ in Float.random(in: -1...1, using: &generator) }
            let keys = Self.randomHalves(count * stride, using: &generator)
            let values = Self.randomHalves(count * stride, using: &generator)
            for halfSums in [false, true] {
                func attend(_ variant: KernelVariant) -> [Float] {
                    var scores = [Float](repeating: 0, count: count)
                    var output = [Float](repeating: 0, count: dimension)
                    variant.table.pointee.attend(query, keys, values, stride, count, dimension, 0.125, halfSums ? 1 : 0, &scores, &output)
                    return output
                }
                let expected = attend(.portable)
                let actual = attend(variant)
                // In 16-bit sums, a score a little off may round a sum the other way: one step of
                // 16 bits (about 0.0005 of the sum) at most.
                let tolerance: Float = halfSums ? 1e-3 : 1e-5
                for index in 0..<dimension {
                    #expect(
                        abs(actual[index] - expected[index]) <= tolerance * max(1, abs(expected[index])),
                        "\(variant), half sums \(halfSums), \(count) positions of \(dimension): element \(index)")
                }
            }
        }
    }

    /// The portable attention against the same in doubles: within the order of float sums in
    /// floats, within the 16-bit roundings of the query and of each sum in 16 bits (which a
    /// double computation without them would not show, so that they are seen to happen).
    @Test func portableAttentionMatchesDoubles() {
        var generator = SeededGenerator(seed: 5)
        let (count, dimension) = (40, 64)
        let query = (0..<dimension).map { _ in Float.random(in: -2...2, using: &generator) }
        let keys = Self.randomHalves(count * dimension, using: &generator)
        let values = Self.randomHalves(count * dimension, using: &generator)
        func half(_ bits: UInt16) -> Double { Double(Float(Float16(bitPattern: bits))) }
        func reference(roundingQuery: Bool) -> [Double] {
            let q = query.map { roundingQuery ? Double(Float(Float16($0))) : Double($0) }
            let scores = (0..<count).map { p in (0..<dimension).reduce(0.0) { $0 + q[$1] * half(keys[p * dimension + $1]) } * 0.125 }
            let largest = scores.max() ?? 0
            let weights = scores.map { exp($0 - largest) }
            let total = weights.reduce(0, +)
            return (0..<dimension).map { i in (0..<count).reduce(0.0) { $0 + weights[$1] * half(values[$1 * dimension + i]) } / total }
        }
        for halfSums in [false, true] {
            var scores = [Float](repeating: 0, count: count)
            var output = [Float](repeating: 0, count: dimension)
            KernelVariant.portable.table.pointee.attend(query, keys, values, dimension, count, dimension, 0.125, halfSums ? 1 : 0, &scores, &output)
            let expected = reference(roundingQuery: halfSums)
            let largest = (0..<dimension).map { abs(Double(output[$0]) - expected[$0]) }.max() ?? 0
            if halfSums {
                #expect(largest <= 4e-3 && largest > 1e-5, "16-bit sums: largest difference \(largest)")
            } else {
                #expect(largest <= 1e-5, "float sums: largest difference \(largest)")
            }
        }
    }

    /// The conversion of the KV cache: as Swift's `Float16` rounds, on normal and subnormal
    /// numbers, ties, numbers that round to infinity, infinities and zeros.
    @Test func halvesRoundAsFloat16() {
        var generator = SeededGenerator(seed: 7)
        var floats: [Float] = [0, -0, 1, -1, 65504, 65519.99, 65520, -65520, 1e6, .infinity, -.infinity, 0x1p-14, 0x1p-24, 0x1p-25, 0x1.8p-25, 3e-8]
        // Exact ties between two half-precision numbers, both ways.
        floats += [1 + 0x1p-11, 1 + 3 * 0x1p-11, 0x1p-14 + 0x1p-25, 2049, 2051]
        for _ in 0..<20_000 {
            let exponent = Float(Int.random(in: -30...17, using: &generator))
            floats.append(Float.random(in: -1...1, using: &generator) * powf(2, exponent))
        }
        var halves = [UInt16](repeating: 0, count: floats.count)
        guided_halves_from_floats(floats, floats.count, &halves)
        for (float, bits) in zip(floats, halves) {
            #expect(bits == Float16(float).bitPattern, "\(float): \(bits) against \(Float16(float).bitPattern)")
        }
        var nan = [UInt16](repeating: 0, count: 1)
        guided_halves_from_floats([Float.nan], 1, &nan)
        #expect(Float16(bitPattern: nan[0]).isNaN)
    }
}
