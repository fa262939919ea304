/// The element types of GGUF tensors, with their block layout. The kernels compute with F32,
/// F16, Q4_0, Q4_1 and Q8_0; the others are known so that any GGUF file can be read and checked.
public enum GGMLType: UInt32, Sendable {
    case f32 = 0, f16 = 1, q4_0 = 2, q4_1 = 3, q5_0 = 6, q5_1 = 7, q8_0 = 8, q8_1 = 9
    case q2_K = 10, q3_K = 11, q4_K = 12, q5_K = 13, q6_K = 14, q8_K = 15, bf16 = 30

    /// Elements per block.
    public var blockSize: Int {
        switch self {
        case .f32, .f16, .bf16: 1
        case .q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .q8_1: 32
        case .q2_K, .q3_K, .q4_K, .q5_K, .q6_K, .q8_K: 256
        }
    }

    /// Bytes per block.
    public var blockBytes: Int {
        switch self {
        case .f32: 4
        case .f16, .bf16: 2
        case .q4_0: 18
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

    /// Whether the kernels can compute with this type.
    public var isComputable: Bool {
        switch self {
        case .f32, .f16, .q4_0, .q4_1, .q8_0: true
        default: false
        }
    }
}
