#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The transition rows of a lazily built automaton: `Int32` entries in memory that grows in
/// place.
///
/// Address space for many rows is reserved at once and made usable as the rows grow, so the base
/// stays where it is and growing copies nothing. A block grown by `realloc` is copied once the
/// allocator's threshold for mapping blocks of their own has risen past its size (glibc raises it
/// as mapped blocks are freed): at 4,096 states of 101 byte classes, one copy of 1.6 MB into a new
/// block took more than a millisecond, most of it faults of the new pages, inside one token mask.
/// Where the reservation runs out or cannot be made, a larger block is taken and the entries copied.
struct GrowingRows: ~Copyable {
    /// The entries; it moves only when the reservation runs out.
    private(set) var base: UnsafeMutablePointer<Int32>
    /// How many entries may be written.
    private(set) var capacity: Int
    /// The bytes of address space reserved at ``base``, or 0 when the entries are a block of the
    /// allocator's.
    private var reservedBytes: Int

    /// The address space reserved at first: 64 million entries (hundreds of thousands of rows),
    /// mapped only as they are used.
    static let initialReservation = 1 << 28
    /// The bytes made usable at a time.
    static let commitStep = 1 << 16

    /// Room for `count` entries, in `reservation` bytes of address space at first.
    init(count: Int, reservation: Int = initialReservation) {
        let bytes = Self.roundedUp(count * MemoryLayout<Int32>.stride)
        if let reserved = Self.reserve(max(Self.roundedUp(reservation), bytes)) {
            base = reserved.base
            reservedBytes = reserved.bytes
            capacity = 0
        } else {
            base = Self.allocate(bytes)
            reservedBytes = 0
            capacity = bytes / MemoryLayout<Int32>.stride
        }
        grow(toHold: count)
    }

    deinit {
        if reservedBytes > 0 { munmap(base, reservedBytes) } else { free(base) }
    }

    /// Makes room for `count` entries, keeping those written; ``base`` moves only when the
    /// reservation is used up.
    mutating func grow(toHold count: Int) {
        guard count > capacity else { return }
        let bytes = Self.roundedUp(count * MemoryLayout<Int32>.stride)
        if reservedBytes > 0 {
            if bytes <= reservedBytes, mprotect(base, bytes, PROT_READ | PROT_WRITE) == 0 {
                capacity = bytes / MemoryLayout<Int32>.stride
                return
            }
            // A reservation four times as large, the entries copied into it.
            if let reserved = Self.reserve(max(bytes, reservedBytes) * 4) {
                if mprotect(reserved.base, bytes, PROT_READ | PROT_WRITE) == 0 {
                    reserved.base.update(from: base, count: capacity)
                    munmap(base, reservedBytes)
                    base = reserved.base
                    reservedBytes = reserved.bytes
                    capacity = bytes / MemoryLayout<Int32>.stride
                    return
                }
                munmap(reserved.base, reserved.bytes)
            }
            // No address space left to reserve: a block of the allocator's from here on.
            let entries = Self.allocate(bytes)
            entries.update(from: base, count: capacity)
            munmap(base, reservedBytes)
            base = entries
            reservedBytes = 0
            capacity = bytes / MemoryLayout<Int32>.stride
            return
        }
        // Doubling, as the block is copied when it moves.
        let doubled = max(bytes, capacity * MemoryLayout<Int32>.stride * 2)
        guard let block = realloc(base, doubled) else {
            // Out of memory: nothing sensible remains to do.
            preconditionFailure("cannot allocate \(doubled) bytes for automaton rows")
        }
        base = block.bindMemory(to: Int32.self, capacity: doubled / MemoryLayout<Int32>.stride)
        capacity = doubled / MemoryLayout<Int32>.stride
    }

    /// A block of `bytes` of the allocator's.
    private static func allocate(_ bytes: Int) -> UnsafeMutablePointer<Int32> {
        guard let block = malloc(bytes) else {
            // Out of memory: nothing sensible remains to do.
            preconditionFailure("cannot allocate \(bytes) bytes for automaton rows")
        }
        return block.bindMemory(to: Int32.self, capacity: bytes / MemoryLayout<Int32>.stride)
    }

    /// `bytes` rounded up to a whole number of ``commitStep``s.
    private static func roundedUp(_ bytes: Int) -> Int {
        (max(bytes, 1) + commitStep - 1) / commitStep * commitStep
    }

    /// `bytes` of address space that no access may touch until made usable, or `nil` when the
    /// system refuses them.
    private static func reserve(_ bytes: Int) -> (base: UnsafeMutablePointer<Int32>, bytes: Int)? {
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
        #else
        let flags = MAP_PRIVATE | MAP_ANON
        #endif
        guard let raw = mmap(nil, bytes, PROT_NONE, flags, -1, 0), raw != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        return (raw.bindMemory(to: Int32.self, capacity: bytes / MemoryLayout<Int32>.stride), bytes)
    }
}
