import GuidedKernels

/// The element types of GGUF tensors. Each is described once, in the kernels' table
/// (`guided_type_traits`: its name, block layout, whether it can be computed with and the form
/// its products take their inputs in), which these properties read; every case is in the table
/// and the table holds no other type (a test checks both ways). Every type but Q8_1 and Q8_K
/// (which llama.cpp uses only for activations) can be computed with; a tensor of another type
/// number is refused when the file is read, naming the tensor and the type.
public enum GGMLType: UInt32, Sendable, CaseIterable {
    case f32 = 0, f16 = 1, q4_0 = 2, q4_1 = 3, q5_0 = 6, q5_1 = 7, q8_0 = 8, q8_1 = 9
    case q2_K = 10, q3_K = 11, q4_K = 12, q5_K = 13, q6_K = 14, q8_K = 15, iq4_nl = 20, bf16 = 30

    /// The type's row of the kernels' table.
    var traits: GuidedTypeTraits {
        var traits = GuidedTypeTraits()
        _ = guided_type_traits(rawValue, &traits)
        return traits
    }

    /// Elements per block.
    public var blockSize: Int { Int(traits.blockSize) }

    /// Bytes per block.
    public var blockBytes: Int { Int(traits.blockBytes) }

    /// Whether weights of this type can be computed with.
    public var isComputable: Bool { traits.computable != 0 }

    /// The name llama.cpp gives a type number, known to this library (from the kernels' table)
    /// or not (for messages).
    public static func name(of number: UInt32) -> String {
        var traits = GuidedTypeTraits()
        if guided_type_traits(number, &traits) != 0, let name = traits.name { return String(cString: name) }
        let others: [UInt32: String] = [
            16: "IQ2_XXS", 17: "IQ2_XS", 18: "IQ3_XXS", 19: "IQ1_S", 21: "IQ3_S", 22: "IQ2_S", 23: "IQ4_XS", 24: "I8", 25: "I16", 26: "I32",
            27: "I64", 28: "F64", 29: "IQ1_M", 34: "TQ1_0", 35: "TQ2_0", 39: "MXFP4",
        ]
        return others[number] ?? "unknown"
    }
}
