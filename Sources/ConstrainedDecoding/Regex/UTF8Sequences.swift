/// The UTF-8 spellings of ranges of scalars, as sequences of byte ranges: every scalar of a
/// range is spelled by exactly one sequence, and every byte string a sequence matches is the
/// UTF-8 of a scalar in the range.
enum UTF8Sequences {
    static func of(_ range: ClosedRange<UInt32>) -> [[ClosedRange<UInt8>]] {
        var result: [[ClosedRange<UInt8>]] = []
        split(range.lowerBound, range.upperBound, into: &result)
        return result
    }

    private static let lengthLimits: [UInt32] = [0x7F, 0x7FF, 0xFFFF, 0x10FFFF]

    private static func split(_ low: UInt32, _ high: UInt32, into result: inout [[ClosedRange<UInt8>]]) {
        guard low <= high else { return }
        // Ranges that cross an encoded-length boundary are split there first.
        for limit in lengthLimits.dropLast() where low <= limit && high > limit {
            split(low, limit, into: &result)
            split(limit + 1, high, into: &result)
            return
        }
        if high <= 0x7F {
            result.append([UInt8(low)...UInt8(high)])
            return
        }
        let length = high <= 0x7FF ? 2 : high <= 0xFFFF ? 3 : 4
        // Split until, at every continuation position, the range covers whole blocks.
        for index in 1..<length {
            let mask: UInt32 = (1 << (6 * UInt32(index))) - 1
            if low & ~mask != high & ~mask {
                if low & mask != 0 {
                    split(low, low | mask, into: &result)
                    split((low | mask) + 1, high, into: &result)
                    return
                }
                if high & mask != mask {
                    split(low, (high & ~mask) - 1, into: &result)
                    split(high & ~mask, high, into: &result)
                    return
                }
            }
        }
        let lowBytes = encode(low, length: length)
        let highBytes = encode(high, length: length)
        result.append(zip(lowBytes, highBytes).map { $0...$1 })
    }

    private static func encode(_ scalar: UInt32, length: Int) -> [UInt8] {
        switch length {
        case 2: [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)]
        case 3: [UInt8(0xE0 | scalar >> 12), UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F)]
        default:
            [UInt8(0xF0 | scalar >> 18), UInt8(0x80 | scalar >> 12 & 0x3F), UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F)]
        }
    }
}
