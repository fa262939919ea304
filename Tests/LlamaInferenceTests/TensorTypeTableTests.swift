import GuidedKernels
import Testing

@testable import LlamaInference

/// The kernels' table of tensor types and Swift's `GGMLType` describe the same types, and their
/// layouts are llama.cpp's (`ggml.c`'s `type_traits`: elements and bytes per block).
@Suite struct TensorTypeTableTests {
    @Test func everyCaseIsInTheTableAndTheTableHoldsNoOtherType() {
        for number in UInt32(0)..<256 {
            var traits = GuidedTypeTraits()
            let known = guided_type_traits(number, &traits) != 0
            #expect(known == (GGMLType(rawValue: number) != nil), "type \(number)")
        }
        var traits = GuidedTypeTraits()
        #expect(guided_type_traits(UInt32.max, &traits) == 0)
    }

    @Test func layoutsAreLlamaCpps() {
        let llamaCpp: [GGMLType: (name: String, elements: Int, bytes: Int)] = [
            .f32: ("F32", 1, 4), .f16: ("F16", 1, 2), .bf16: ("BF16", 1, 2), .q4_0: ("Q4_0", 32, 18), .q4_1: ("Q4_1", 32, 20),
            .q5_0: ("Q5_0", 32, 22), .q5_1: ("Q5_1", 32, 24), .q8_0: ("Q8_0", 32, 34), .q8_1: ("Q8_1", 32, 36), .q2_K: ("Q2_K", 256, 84),
            .q3_K: ("Q3_K", 256, 110), .q4_K: ("Q4_K", 256, 144), .q5_K: ("Q5_K", 256, 176), .q6_K: ("Q6_K", 256, 210),
            .q8_K: ("Q8_K", 256, 292), .iq4_nl: ("IQ4_NL", 32, 18),
        ]
        #expect(llamaCpp.count == GGMLType.allCases.count)
        for type in GGMLType.allCases {
            let expected = llamaCpp[type]
            #expect(GGMLType.name(of: type.rawValue) == expected?.name)
            #expect(type.blockSize == expected?.elements && type.blockBytes == expected?.bytes, "\(type)")
            #expect(type.isComputable == (type != .q8_1 && type != .q8_K))
        }
        #expect(GGMLType.name(of: 23) == "IQ4_XS" && GGMLType.name(of: 200) == "unknown")
    }
}
