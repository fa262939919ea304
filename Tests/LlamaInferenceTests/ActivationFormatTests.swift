import Testing

@testable import LlamaInference

/// The forms a product's input takes, as llama.cpp prepares it for each weight type.
@Suite struct ActivationFormatTests {
    @Test func eachWeightTypeTakesLlamaCppsInputFormat() {
        #expect(ActivationFormat(weights: .q4_0) == .blocks32 && ActivationFormat(weights: .q8_0) == .blocks32)
        #expect(ActivationFormat(weights: .iq4_nl) == .blocks32)
        for type in [GGMLType.q2_K, .q3_K, .q4_K, .q5_K, .q6_K] { #expect(ActivationFormat(weights: type) == .blocks256) }
        #expect(ActivationFormat(weights: .f16) == .half && ActivationFormat(weights: .bf16) == .bfloat)
        #expect(ActivationFormat(weights: .f32) == .float)
    }

    /// Half precision, ties to even, as numpy's `float16` rounds (normal numbers, subnormals,
    /// overflow).
    @Test func roundsToHalfPrecision() {
        #expect(ActivationFormat.roundedToHalf(1 / 3) == 0.333251953125)
        #expect(ActivationFormat.roundedToHalf(1.00146484375) == 1.001953125)
        #expect(ActivationFormat.roundedToHalf(65519) == 65504)
        #expect(ActivationFormat.roundedToHalf(65520) == .infinity && ActivationFormat.roundedToHalf(-70000) == -.infinity)
        #expect(ActivationFormat.roundedToHalf(1e-8) == 0 && ActivationFormat.roundedToHalf(6e-8) == 0x1p-24)
        #expect(ActivationFormat.roundedToHalf(-2.5e-5) == -2.4974346160888672e-05)
        #expect(ActivationFormat.roundedToHalf(.nan).isNaN)
    }

    @Test func roundsToBFloat16() {
        #expect(ActivationFormat.roundedToBFloat(1 / 3) == 0.333984375)
        #expect(ActivationFormat.roundedToBFloat(1.00390625) == 1 && ActivationFormat.roundedToBFloat(1.01171875) == 1.015625)
        #expect(ActivationFormat.roundedToBFloat(-3.14159) == -3.140625)
        #expect(ActivationFormat.roundedToBFloat(.nan).isNaN)
    }

    /// Blocks of 256 share one scale, the largest magnitude over 127; the block sums are those of
    /// the values written.
    @Test func blocksOf256ShareOneScale() {
        var input = [Float](repeating: 0, count: 512)
        for index in input.indices {
            let step: Float = index < 256 ? 0.25 : -3
            input[index] = Float(index % 37) * step
        }
        input[300] -= 500
        var vector = QuantizedVector(capacity: input.count)
        defer { vector.deallocate() }
        input.withUnsafeBufferPointer { input in
            vector.load(input.baseAddress!, count: input.count)
            vector.prepare(.blocks256, kernels: KernelVariant.portable.table)
        }
        for group in 0..<2 {
            let largest: Float = input[group * 256..<(group + 1) * 256].map { abs($0) }.max() ?? 0
            let expected = largest / 127
            for block in group * 8..<(group + 1) * 8 {
                let scale = vector.scales[block]
                #expect(abs(scale - expected) <= expected * 1e-6)
                var sum = 0
                for offset in 0..<32 {
                    let value = Float(vector.values[block * 32 + offset])
                    sum += Int(vector.values[block * 32 + offset])
                    #expect(abs(value * scale - input[block * 32 + offset]) <= scale * 0.5001)
                }
                #expect(vector.sums[block] == scale * Float(sum))
            }
        }
        #expect(vector.values[300] == -127)
    }

    /// A 16-bit format rounds the floats the products read; the integer formats leave them.
    @Test func halfPrecisionInputsAreRounded() {
        let input: [Float] = (0..<64).map { Float($0) / 3 }
        var vector = QuantizedVector(capacity: input.count)
        defer { vector.deallocate() }
        input.withUnsafeBufferPointer { input in
            vector.load(input.baseAddress!, count: input.count)
            vector.prepare(.half, kernels: KernelVariant.portable.table)
            #expect((0..<64).allSatisfy { vector.original[$0] == ActivationFormat.roundedToHalf(input[$0]) })
            vector.prepare(.blocks32, kernels: KernelVariant.portable.table)
            vector.prepare(.float, kernels: KernelVariant.portable.table)
            #expect(vector.original == input.baseAddress!)
        }
    }
}
