/// Sixteen groups of plain-text characters (``VocabularyIndex/isPlainText(_:)``), by which a
/// token trie summarizes the characters below each node, and a mask walk takes whole a subtree
/// whose characters all fall in groups that cannot lead its state out of the grammar
/// (``LazyDFA/safeGroups(_:)``).
///
/// The groups follow what patterns and formats tell apart: lowercase and uppercase letters,
/// digits, the space, the punctuation of identifiers, paths, addresses, templates and queries,
/// and the characters of two, three and four bytes, with U+2000 to U+2FFF (punctuation, arrows
/// and symbols) apart from the other three-byte ones.
enum CharacterGroups {
    static let count = 16
    /// Not a group: a continuation byte, or a byte that starts no plain-text character.
    static let none: UInt8 = 0xFF

    /// The group of the character that each byte starts, or ``none``.
    static let groupOfLead: [UInt8] = {
        var groups = [UInt8](repeating: none, count: 256)
        let ascii: [(String, UInt8)] = [
            ("abcdefghijklmnopqrstuvwxyz", 0), ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1), ("0123456789", 2), (" ", 3), (".", 4),
            ("-_", 5), ("/", 6), (":@", 7), ("~", 8), ("{}", 9), ("?#&=%", 10), ("!$'()*+,;<>[]^`|\u{7F}", 11),
        ]
        for (characters, group) in ascii {
            for byte in characters.utf8 { groups[Int(byte)] = group }
        }
        for byte in 0xC2...0xDF { groups[byte] = 12 }
        for byte in 0xE0...0xEF { groups[byte] = byte == 0xE2 ? 13 : 14 }
        for byte in 0xF0...0xF4 { groups[byte] = 15 }
        return groups
    }()

    /// The groups from those that the fewest tokens of real vocabularies hold to those that the
    /// most do.
    static let byRarity: [Int] = [8, 9, 7, 10, 6, 13, 15, 4, 5, 11, 12, 2, 14, 1, 3, 0]

    /// The groups of the characters of `bytes` (as bits), counting the lead byte of each.
    static func groups(of bytes: some Sequence<UInt8>) -> UInt16 {
        bytes.reduce(0) { groups, byte in
            let group = groupOfLead[Int(byte)]
            return group == none ? groups : groups | 1 << UInt16(group)
        }
    }
}
