import GuidedKernels

/// The form in which a matrix product takes its input vector, chosen by the weights' type as
/// llama.cpp chooses it, so that the products agree with llama.cpp's to within the order of their
/// sums: 8-bit values in blocks of 32 with a 16-bit scale each (weights in blocks of 32, like Q8_0
/// and Q8_1), 8-bit values in blocks of 256 that share one scale (the K-quants, like Q8_K), floats
/// rounded to the weights' 16-bit format (F16, BF16), or floats as they are.
enum ActivationFormat: Sendable, Equatable {
    case blocks32, blocks256, half, bfloat, float

    /// The format of the inputs of weights of `type`, as the kernels' table has it.
    init(weights type: GGMLType) {
        switch type.traits.input {
        case .GUIDED_INPUT_BLOCKS32: self = .blocks32
        case .GUIDED_INPUT_BLOCKS256: self = .blocks256
        case .GUIDED_INPUT_HALF: self = .half
        case .GUIDED_INPUT_BFLOAT: self = .bfloat
        case .GUIDED_INPUT_FLOAT: self = .float
        }
    }

    /// Whether the products run on 8-bit values.
    var isQuantized: Bool { self == .blocks32 || self == .blocks256 }

    /// `value` rounded to the nearest half-precision number (ties to even), as a `Float`.
    static func roundedToHalf(_ value: Float) -> Float {
        guard value.isFinite else { return value }
        // Below the smallest normal half, the numbers are multiples of 2^-24.
        if abs(value) < 0x1p-14 { return (value * 0x1p24).rounded(.toNearestOrEven) * 0x1p-24 }
        // Elsewhere 11 significant bits of the float's 24 stay.
        let bits = value.bitPattern
        let rounded = Float(bitPattern: (bits &+ 0x0FFF &+ ((bits >> 13) & 1)) & ~0x1FFF)
        return abs(rounded) > 65504 ? (value < 0 ? -.infinity : .infinity) : rounded
    }

    /// `value` rounded to the nearest bfloat16 number (ties to even), as a `Float`.
    static func roundedToBFloat(_ value: Float) -> Float {
        guard !value.isNaN else { return value }
        let bits = value.bitPattern
        return Float(bitPattern: (bits &+ 0x7FFF &+ ((bits >> 16) & 1)) & 0xFFFF_0000)
    }
}
