/// A request's stop sequences over the growing text of an answer: where the first of them
/// begins, and how much of the text is settled (no further token can make it part of one), so
/// that a stream never sends what the answer will not hold.
struct StopSequences {
    /// Thrown from a turn's reader to end the turn where a stop sequence begins.
    struct Reached: Error {}

    private let sequences: [[UInt8]]
    /// The bytes of the longest sequence, less one: the tail that may begin a sequence.
    private let heldBack: Int

    init(_ sequences: [String]) {
        self.sequences = sequences.map { Array($0.utf8) }
        heldBack = max(0, (self.sequences.map(\.count).max() ?? 0) - 1)
    }

    /// Where the search goes on: no sequence starts before it in the text seen so far.
    private var searched = 0

    /// The text before the first stop sequence it holds, or `nil` when it holds none; `text`
    /// grows from one call to the next, and only its new part is searched.
    mutating func cut(_ text: String) -> String? {
        guard !sequences.isEmpty else { return nil }
        let bytes = Array(text.utf8)
        var earliest: Int?
        for sequence in sequences {
            guard let start = Self.firstIndex(of: sequence, in: bytes, from: min(searched, bytes.count)), start < earliest ?? .max else { continue }
            earliest = start
        }
        searched = max(0, bytes.count - heldBack)
        return earliest.map { String(decoding: bytes[..<$0], as: UTF8.self) }
    }

    /// The text less the tail that the next tokens could turn into a stop sequence, ending
    /// between two scalars.
    func settled(_ text: String) -> String {
        guard heldBack > 0 else { return text }
        let bytes = Array(text.utf8)
        var end = max(0, bytes.count - heldBack)
        // Back to the first byte of a scalar (continuation bytes are 10xxxxxx).
        while end > 0, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from first: Int) -> Int? {
        guard needle.count <= haystack.count - first else { return nil }
        for start in first...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
