/// A metadata value of a GGUF file.
public indirect enum GGUFValue: Sendable, Equatable {
    case uint8(UInt8), int8(Int8), uint16(UInt16), int16(Int16), uint32(UInt32), int32(Int32)
    case uint64(UInt64), int64(Int64), float32(Float), float64(Double), bool(Bool)
    case string(String)
    case array([GGUFValue])

    /// The value as an integer, when it is one.
    public var integer: Int? {
        switch self {
        case .uint8(let value): Int(value)
        case .int8(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint64(let value): Int(exactly: value)
        case .int64(let value): Int(value)
        default: nil
        }
    }

    /// The value as a floating-point number, when it is a number.
    public var double: Double? {
        switch self {
        case .float32(let value): Double(value)
        case .float64(let value): value
        default: integer.map(Double.init)
        }
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var array: [GGUFValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}
