/// Watches a response as it is written for the loops small models fall into, and says where the
/// text should have ended: in JSON, an array element equal to an earlier element of the same
/// array, or a string that repeats a run of four words a third time; in free text, a run of six
/// words repeated a third time.
struct RepetitionWatch {
    /// A loop, and how much of the text to keep.
    enum Finding: Equatable {
        /// An array's last element repeats an earlier one: keep the first `keep` bytes (up to
        /// the comma before the repeat), then close the array.
        case repeatedElement(keep: Int)
        /// A run of words came back a third time: keep the first `keep` bytes (up to where the
        /// run came back the first time), then end the string or the text.
        case loop(keep: Int)
    }

    /// An open array or object of the JSON text.
    private struct Container {
        var isArray: Bool
        /// The name of the member the container is the value of.
        var key: [UInt8]?
        /// Where the current element starts, once it has.
        var elementStart: Int?
        /// The offset of the `[` or `,` before the current element.
        var separator: Int
        /// The elements so far, normalized.
        var elements: Set<[UInt8]> = []
    }

    private let json: Bool
    /// How many words make a run.
    private let runLength: Int
    /// How many bytes have been read.
    private var count = 0
    private var containers: [Container] = []
    private var inString = false
    /// Whether the string being read is a member name.
    private var inKey = false
    /// Whether a string that starts now is a member name.
    private var expectsKey = false
    /// Where the last member name started (its opening quote), and the name.
    private var keyStart = 0
    private var lastKey: [UInt8]?
    private var escaped = false
    /// Where the current word starts, and its hash so far.
    private var word: (start: Int, hash: UInt64)?
    /// The words of the current string (or of the text), as hashes and start offsets.
    private var words: [(hash: UInt64, start: Int)] = []
    /// Where each run of words began, by the run's hash.
    private var runs: [UInt64: [Int]] = [:]

    /// Whether the text ends inside a string that is a value (not a member name), or inside free text.
    var isInStringValue: Bool { inString && !inKey }

    /// How many arrays the text is inside.
    var arrayDepth: Int { containers.count { $0.isArray } }

    /// Whether the innermost container is an array held by a member of the same name as an
    /// array around it (`replies` within `replies`: a recursive type nesting again).
    var isInNestedArrayOfSameName: Bool {
        guard let inner = containers.last, inner.isArray, let key = inner.key else { return false }
        return containers.dropLast().contains { $0.isArray && $0.key == key }
    }

    /// How many of the bytes read no finding can take back any more: in JSON, those before the
    /// last separator of the outermost open array that has ended an element (the element after
    /// it may repeat one, and is then cut with the separator) and before the current string
    /// value (a loop is cut inside it); in text, all of them (a loop found later may reach
    /// further back).
    var settledCount: Int {
        guard json else { return count }
        var settled = inString && !inKey ? keyStart : count
        if let array = containers.first(where: { $0.isArray && !$0.elements.isEmpty }) { settled = min(settled, array.separator) }
        return settled
    }

    init(json: Bool) {
        self.json = json
        runLength = json ? 4 : 6
        inString = !json
    }

    /// Reads the bytes of `text` after those already read; returns the first loop they close.
    mutating func read(_ text: [UInt8]) -> Finding? {
        var finding: Finding?
        while count < text.count {
            let offset = count
            count += 1
            if let found = read(text[offset], at: offset, in: text), finding == nil { finding = found }
        }
        return finding
    }

    private mutating func read(_ byte: UInt8, at offset: Int, in text: [UInt8]) -> Finding? {
        if inString {
            if escaped {
                escaped = false
                return nil
            }
            if Self.isWordByte(byte) {
                let hash = word?.hash ?? 0xcbf2_9ce4_8422_2325
                word = (word?.start ?? offset, (hash ^ UInt64(Self.lowercased(byte))) &* 0x100_0000_01b3)
                return nil
            }
            let finding = endWord()
            if json, byte == UInt8(ascii: "\\") { escaped = true }
            if json, byte == UInt8(ascii: "\"") {
                inString = false
                if inKey { lastKey = Array(text[(keyStart + 1)..<offset]) }
            }
            return finding
        }
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
            return nil
        case UInt8(ascii: ":"):
            expectsKey = false
            return nil
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            startElement(at: offset)
            let key = containers.last.map { $0.isArray ? nil : lastKey } ?? nil
            containers.append(Container(isArray: byte == UInt8(ascii: "["), key: key, separator: offset))
            expectsKey = byte == UInt8(ascii: "{")
            return nil
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            let finding = endElement(at: offset, in: text)
            if !containers.isEmpty { containers.removeLast() }
            return finding
        case UInt8(ascii: ","):
            let finding = endElement(at: offset, in: text)
            if !containers.isEmpty {
                containers[containers.count - 1].separator = offset
                containers[containers.count - 1].elementStart = nil
                expectsKey = !containers[containers.count - 1].isArray
            }
            return finding
        default:
            startElement(at: offset)
            if byte == UInt8(ascii: "\"") {
                inString = true
                inKey = expectsKey
                keyStart = offset
                words.removeAll(keepingCapacity: true)
                runs.removeAll(keepingCapacity: true)
            }
            return nil
        }
    }

    /// Marks the start of an array element, when `offset` begins one.
    private mutating func startElement(at offset: Int) {
        guard let last = containers.indices.last, containers[last].isArray, containers[last].elementStart == nil else { return }
        containers[last].elementStart = offset
    }

    /// Ends the current element of the innermost container, at `offset`; a repeat is a finding.
    private mutating func endElement(at offset: Int, in text: [UInt8]) -> Finding? {
        guard let last = containers.indices.last, containers[last].isArray, let start = containers[last].elementStart else { return nil }
        let element = Self.normalized(text[start..<offset])
        if containers[last].elements.contains(element) { return .repeatedElement(keep: containers[last].separator) }
        containers[last].elements.insert(element)
        return nil
    }

    /// Ends the current word; a run of words seen twice before is a finding.
    private mutating func endWord() -> Finding? {
        guard let ended = word else { return nil }
        word = nil
        words.append((ended.hash, ended.start))
        guard words.count >= runLength else { return nil }
        var hash: UInt64 = 0
        for index in (words.count - runLength)..<words.count { hash = (hash &* 0x9e37_79b9_7f4a_7c15) ^ words[index].hash }
        let start = words[words.count - runLength].start
        runs[hash, default: []].append(start)
        guard let starts = runs[hash], starts.count == 3 else { return nil }
        return .loop(keep: starts[1])
    }

    /// Letters and digits of any script (the bytes of a multi-byte character) make words.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// A JSON value's text as elements are compared: no spaces outside strings, and strings
    /// without case, with their spaces trimmed and collapsed.
    private static func normalized(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var inString = false
        var escaped = false
        var space = false
        for byte in text {
            let isSpace = byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            if !inString {
                if isSpace { continue }
                if byte == UInt8(ascii: "\"") { inString = true }
                result.append(byte)
                continue
            }
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                space = false
                result.append(byte)
                continue
            } else if isSpace {
                space = result.last != UInt8(ascii: "\"")
                continue
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            }
            if space { result.append(UInt8(ascii: " ")) }
            space = false
            result.append(lowercased(byte))
        }
        return result
    }
}
