/// Follows the items of an array whose items must be distinct strings (`uniqueItems`), byte by
/// byte, and tells when an item ends equal to an earlier one.
///
/// The grammar spells each character of a string one way only (``JSONStringSpelling``), so two
/// items are equal strings exactly when their bytes are equal. The tracker reads the bytes after
/// the array's `[`; the automaton has already checked that they are well-formed, so the tracker
/// only follows where items start and end.
struct UniquenessTracker {
    /// What a byte did.
    enum Event {
        /// Nothing to check.
        case none
        /// An item ended equal to an earlier one.
        case repeated
        /// The array ended, or a byte left the shape of an array of strings: no longer followed.
        case left
    }

    private enum Phase: UInt8 {
        case inactive, beforeItem, inString, escape, afterItem
    }

    private var phase = Phase.inactive
    /// The items so far, as spelt between their quotes, in byte order.
    private(set) var items: [[UInt8]] = []
    /// The item being read.
    private(set) var current: [UInt8] = []

    /// Whether an array is being followed.
    var isActive: Bool { phase != .inactive }

    /// Whether the last byte read was the backslash of an escape.
    var isInEscape: Bool { phase == .escape }

    /// Whether the item being read, as read so far, starts some earlier item, so that it may
    /// still end up repeating one.
    var mayRepeat: Bool {
        switch phase {
        case .inString, .escape:
            let first = firstItem(notBefore: current)
            return first < items.count && items[first].starts(with: current)
        case .inactive, .beforeItem, .afterItem:
            return false
        }
    }

    /// What earlier items that the current one starts still need to be repeated: the bytes a
    /// token could bring the item closer to a repeat with. Empty unless a string is being read
    /// outside an escape.
    var remainders: [ArraySlice<UInt8>] {
        guard phase == .inString else { return [] }
        return itemsStartedByCurrent.compactMap { items[$0].count > current.count ? items[$0][current.count...] : nil }
    }

    /// The positions of the earlier items that the item being read starts, a range of ``items``.
    var itemsStartedByCurrent: Range<Int> {
        // Those that sort before it, then those it starts, then the others.
        let start = firstItem(notBefore: current)
        var low = start
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle].starts(with: current) { low = middle + 1 } else { high = middle }
        }
        return start..<low
    }

    /// The position of the first item that does not sort before `bytes`.
    private func firstItem(notBefore bytes: [UInt8]) -> Int {
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle].lexicographicallyPrecedes(bytes) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Starts following an array, just after its `[`.
    mutating func start() {
        self = UniquenessTracker()
        phase = .beforeItem
    }

    /// Stops following the array.
    mutating func stop() {
        self = UniquenessTracker()
    }

    /// Reads one byte of the array.
    mutating func read(_ byte: UInt8) -> Event {
        switch phase {
        case .inactive:
            return .none
        case .beforeItem, .afterItem:
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                return .none
            case UInt8(ascii: "\"") where phase == .beforeItem:
                current.removeAll(keepingCapacity: true)
                phase = .inString
                return .none
            case UInt8(ascii: ",") where phase == .afterItem:
                phase = .beforeItem
                return .none
            default:
                stop()
                return .left
            }
        case .inString:
            switch byte {
            case UInt8(ascii: "\\"):
                current.append(byte)
                phase = .escape
                return .none
            case UInt8(ascii: "\""):
                let position = firstItem(notBefore: current)
                if position < items.count, items[position] == current {
                    stop()
                    return .repeated
                }
                items.insert(current, at: position)
                phase = .afterItem
                return .none
            default:
                current.append(byte)
                return .none
            }
        case .escape:
            current.append(byte)
            phase = .inString
            return .none
        }
    }
}
