/// The element types of GGUF tensors, with their block layout. Every type but Q8_1 and Q8_K
/// (which llama.cpp uses only for activations) can be computed with; a tensor of another type
/// number is refused when the file is read, naming the tensor and the type.
public enum GGMLType: UInt32, Sendable, CaseIterable {
    case f32 = 0, f16 = 1, q4_0 = 2, q4_1 = 3, q5_0 = 6, q5_1 = 7, q8_0 = 8, q8_1 = 9
    case q2_K = 10, q3_K = 11, q4_K = 12, q5_K = 13, q6_K = 14, q8_K = 15, iq4_nl = 20, bf16 = 30

    /// Elements per block.
    public var blockSize: Int {
        switch self {
        case .f32, .f16, .bf16: 1
        case .q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .q8_1, .iq4_nl: 32
        case .q2_K, .q3_K, .q4_K, .q5_K, .q6_K, .q8_K: 256
        }
    }

    /// Bytes per block.
    public var blockBytes: Int {
        switch self {
        case .f32: 4
        case .f16, .bf16: 2
        case .q4_0, .iq4_nl: 18
        case .q4_1: 20
        case .q5_0: 22
        case .q5_1: 24
        case .q8_0: 34
        case .q8_1: 36
        case .q2_K: 84
        case .q3_K: 110
        case .q4_K: 144
        case .q5_K: 176
        case .q6_K: 210
        case .q8_K: 292
        }
    }

    /// Whether weights of this type can be computed with.
    public var isComputable: Bool {
        switch self {
        case .q8_1, .q8_K: false
        default: true
        }
    }

    /// The name llama.cpp gives a type number, known to this library or not (for messages).
    public static func name(of number: UInt32) -> String {
        let names: [UInt32: String] = [
            0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 6: "Q5_0", 7: "Q5_1", 8: "Q8_0", 9: "Q8_1", 10: "Q2_K", 11: "Q3_K", 12: "Q4_K",
            13: "Q5_K", 14: "Q6_K", 15: "Q8_K", 16: "IQ2_XXS", 17: "IQ2_XS", 18: "IQ3_XXS", 19: "IQ1_S", 20: "IQ4_NL", 21: "IQ3_S",
            22: "IQ2_S", 23: "IQ4_XS", 24: "I8", 25: "I16", 26: "I32", 27: "I64", 28: "F64", 29: "IQ1_M", 30: "BF16", 34: "TQ1_0",
            35: "TQ2_0", 39: "MXFP4",
        ]
        return names[number] ?? "unknown"
    }
}
