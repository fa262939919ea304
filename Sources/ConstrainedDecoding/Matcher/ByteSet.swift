/// A set of bytes, as four words of bits.
struct ByteSet {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    var isEmpty: Bool { words == (0, 0, 0, 0) }

    mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    func isSubset(of other: ByteSet) -> Bool {
        words.0 & ~other.words.0 == 0 && words.1 & ~other.words.1 == 0 && words.2 & ~other.words.2 == 0 && words.3 & ~other.words.3 == 0
    }

    func contains(_ byte: UInt8) -> Bool {
        let word = switch byte >> 6 {
        case 0: words.0
        case 1: words.1
        case 2: words.2
        default: words.3
        }
        return word & (UInt64(1) << UInt64(byte & 63)) != 0
    }
}
