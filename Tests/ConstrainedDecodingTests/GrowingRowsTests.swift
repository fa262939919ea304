@testable import ConstrainedDecoding
import Testing

/// The automaton's rows grow in place within their reservation, keep every entry written, and
/// past the reservation move with their entries.
@Suite struct GrowingRowsTests {
    /// Writes entry `index` as a value of its own, over `range`.
    static func fill(_ rows: borrowing GrowingRows, _ range: Range<Int>) {
        for index in range { rows.base[index] = Int32(truncatingIfNeeded: index &* 2_654_435_761) }
    }

    /// The first entry in `range` that is not what ``fill(_:_:)`` wrote, if any.
    static func firstWrong(_ rows: borrowing GrowingRows, _ range: Range<Int>) -> Int? {
        range.first { rows.base[$0] != Int32(truncatingIfNeeded: $0 &* 2_654_435_761) }
    }

    @Test func growingWithinTheReservationKeepsTheBaseAndTheEntries() {
        var rows = GrowingRows(count: 256 * 101)
        let base = rows.base
        var written = 0
        // As an automaton grows: a row of 101 entries at a time, to 40,000 states (16 MB).
        for states in stride(from: 257, through: 40_000, by: 97) {
            rows.grow(toHold: states * 101)
            #expect(rows.capacity >= states * 101)
            Self.fill(rows, written..<states * 101)
            written = states * 101
        }
        #expect(rows.base == base)
        #expect(Self.firstWrong(rows, 0..<written) == nil)
    }

    @Test func growingPastTheReservationMovesTheEntries() {
        let reserved = 4 * GrowingRows.commitStep / MemoryLayout<Int32>.stride
        var rows = GrowingRows(count: 1000, reservation: 4 * GrowingRows.commitStep)
        Self.fill(rows, 0..<1000)
        // Entries near the end of the reservation, then beyond it.
        rows.grow(toHold: reserved)
        Self.fill(rows, reserved - 1000..<reserved)
        rows.grow(toHold: reserved + 1)
        #expect(rows.capacity > reserved)
        rows.base[reserved] = 7
        // And again, the new reservation four times as large.
        rows.grow(toHold: 5 * reserved)
        #expect(rows.capacity >= 5 * reserved)
        #expect(Self.firstWrong(rows, 0..<1000) == nil)
        #expect(Self.firstWrong(rows, reserved - 1000..<reserved) == nil)
        #expect(rows.base[reserved] == 7)
    }
}
