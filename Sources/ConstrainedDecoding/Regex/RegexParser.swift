/// Parses the regular expressions of JSON Schema `pattern`s and Swift regex literals: literals,
/// escapes (`\d \w \s \D \W \S \t \n \r \f \v \0 \xHH \uHHHH \u{H…}` and escaped
/// metacharacters), classes with ranges and negation, `.`, groups (capturing, `(?:…)`, named),
/// alternation, the quantifiers `* + ? {n} {n,} {n,m}` (lazy forms mean the same language), and
/// `^`/`$` at the ends of the alternatives, groups that hold them spread out. Lookarounds,
/// backreferences, word boundaries, possessive quantifiers, Unicode properties and inline flags
/// are refused: they cannot be enforced exactly by an automaton here.
struct RegexParser {
    private let scalars: [UInt32]
    private var position = 0
    /// What `.` matches: any character but a line terminator, as ECMA-262 has it, unless the
    /// caller says otherwise.
    private var dot = CodePointSet.all.subtracting(Self.lineTerminators)

    /// The largest count a quantifier may give.
    static let maximumRepetition = 1000

    /// The language of a `pattern`: strings that contain a match, as JSON Schema says, or that
    /// match from the start or to the end where the pattern is anchored.
    static func patternLanguage(_ pattern: String) throws(RegexError) -> RegexNode {
        var parser = RegexParser(scalars: pattern.unicodeScalars.map(\.value))
        let alternatives = try parser.topLevel()
        let anything = RegexNode.repetition(.set(.all), minimum: 0, maximum: nil)
        return .alternation(alternatives.map { alternative in
            .sequence((alternative.anchoredStart ? [] : [anything]) + [alternative.node] + (alternative.anchoredEnd ? [] : [anything]))
        })
    }

    /// The language of a whole-match regex (as `Regex` literals and formats are used), with `.`
    /// matching `dot` when given.
    static func wholeMatchLanguage(_ pattern: String, dot: CodePointSet? = nil) throws(RegexError) -> RegexNode {
        var parser = RegexParser(scalars: pattern.unicodeScalars.map(\.value))
        if let dot { parser.dot = dot }
        let alternatives = try parser.topLevel()
        return .alternation(alternatives.map(\.node))
    }

    private init(scalars: [UInt32]) {
        self.scalars = scalars
    }

    private var current: UInt32? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ character: Character) -> Bool {
        current == character.unicodeScalars.first?.value
    }

    private mutating func take(_ character: Character) -> Bool {
        guard peek(character) else { return false }
        position += 1
        return true
    }

    private func fail(_ reason: String) -> RegexError {
        RegexError(reason: "\(reason) (at character \(position + 1))")
    }

    /// The most alternatives that spreading anchored groups out may give.
    static let maximumAnchoredAlternatives = 64

    /// The pattern as alternatives, each anchored at its start, its end, both or neither: a
    /// group that holds anchors is spread out into the alternatives around it (`^$|(^a+$)` is
    /// `^$` or `^a+$`). An anchor elsewhere than at an end of an alternative is refused.
    private mutating func topLevel() throws(RegexError) -> [(node: RegexNode, anchoredStart: Bool, anchoredEnd: Bool)] {
        let node = try alternation()
        guard current == nil else { throw fail("unexpected '\(Character(Unicode.Scalar(current ?? 0) ?? " "))'") }
        var alternatives: [(node: RegexNode, anchoredStart: Bool, anchoredEnd: Bool)] = []
        for var items in try spread(node) {
            var anchoredStart = false
            var anchoredEnd = false
            while let first = items.first, Self.isStartOrEmpty(first) {
                if case .startAnchor = first { anchoredStart = true }
                items.removeFirst()
            }
            while let last = items.last, Self.isEndOrEmpty(last) {
                if case .endAnchor = last { anchoredEnd = true }
                items.removeLast()
            }
            guard !items.contains(where: Self.containsAnchor) else { throw RegexError(reason: "an anchor inside the pattern is not supported") }
            alternatives.append((items.count == 1 ? items[0] : items.isEmpty ? .empty : .sequence(items), anchoredStart, anchoredEnd))
        }
        return alternatives
    }

    private static func isStartOrEmpty(_ node: RegexNode) -> Bool {
        switch node {
        case .startAnchor, .empty: true
        default: false
        }
    }

    private static func isEndOrEmpty(_ node: RegexNode) -> Bool {
        switch node {
        case .endAnchor, .empty: true
        default: false
        }
    }

    private static func containsAnchor(_ node: RegexNode) -> Bool {
        switch node {
        case .startAnchor, .endAnchor: true
        case .empty, .set: false
        case .sequence(let items), .alternation(let items): items.contains(where: containsAnchor)
        case .repetition(let inner, _, _): containsAnchor(inner)
        }
    }

    /// The node as a choice of flat sequences, alternations that hold anchors spread out.
    private func spread(_ node: RegexNode) throws(RegexError) -> [[RegexNode]] {
        guard Self.containsAnchor(node) else { return [[node]] }
        switch node {
        case .sequence(let items):
            var result: [[RegexNode]] = [[]]
            for item in items {
                let parts = try spread(item)
                result = result.flatMap { prefix in parts.map { prefix + $0 } }
                guard result.count <= Self.maximumAnchoredAlternatives else { throw RegexError(reason: "anchors in too many alternatives") }
            }
            return result
        case .alternation(let alternatives):
            var result: [[RegexNode]] = []
            for alternative in alternatives { result += try spread(alternative) }
            guard result.count <= Self.maximumAnchoredAlternatives else { throw RegexError(reason: "anchors in too many alternatives") }
            return result
        case .repetition:
            throw RegexError(reason: "an anchor inside a repetition is not supported")
        default:
            return [[node]]
        }
    }

    private mutating func alternation() throws(RegexError) -> RegexNode {
        var alternatives = [try sequence()]
        while take("|") { alternatives.append(try sequence()) }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func sequence() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = current, scalar != 0x7C, scalar != 0x29 {  // '|' ')'
            let atom = try self.atom()
            items.append(try quantified(atom))
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func quantified(_ atom: RegexNode) throws(RegexError) -> RegexNode {
        var node = atom
        while true {
            let bounds: (Int, Int?)
            if take("*") {
                bounds = (0, nil)
            } else if take("+") {
                bounds = (1, nil)
            } else if take("?") {
                bounds = (0, 1)
            } else if peek("{"), let counted = try countedBounds() {
                bounds = counted
            } else {
                return node
            }
            if take("+") { throw fail("possessive quantifiers are not supported") }
            _ = take("?")  // A lazy quantifier matches the same language.
            node = .repetition(node, minimum: bounds.0, maximum: bounds.1)
        }
    }

    /// `{n}`, `{n,}`, `{n,m}`; `nil` (and no input used) when the brace is a literal.
    private mutating func countedBounds() throws(RegexError) -> (Int, Int?)? {
        let saved = position
        position += 1
        func number() -> Int? {
            var value: Int?
            while let scalar = current, scalar >= 0x30, scalar <= 0x39 {
                value = min((value ?? 0) * 10 + Int(scalar - 0x30), Int(Int32.max))
                position += 1
            }
            return value
        }
        guard let minimum = number() else {
            position = saved
            return nil
        }
        var maximum: Int? = minimum
        if take(",") { maximum = number() }
        guard take("}") else {
            position = saved
            return nil
        }
        guard minimum <= Self.maximumRepetition, (maximum ?? 0) <= Self.maximumRepetition else {
            throw fail("a repetition count above \(Self.maximumRepetition)")
        }
        if let maximum, maximum < minimum { throw fail("a repetition whose maximum is below its minimum") }
        return (minimum, maximum)
    }

    private mutating func atom() throws(RegexError) -> RegexNode {
        guard let scalar = current else { throw fail("unexpected end of pattern") }
        position += 1
        switch scalar {
        case 0x28:  // '('
            if take("?") {
                if take(":") {
                } else if take("<") {
                    if peek("=") || peek("!") { throw fail("lookbehind is not supported") }
                    while let next = current, next != 0x3E { position += 1 }
                    guard take(">") else { throw fail("an unterminated group name") }
                } else if take("P"), take("<") {
                    while let next = current, next != 0x3E { position += 1 }
                    guard take(">") else { throw fail("an unterminated group name") }
                } else if peek("=") || peek("!") {
                    throw fail("lookahead is not supported")
                } else {
                    throw fail("inline flags and special groups are not supported")
                }
            }
            let inner = try alternation()
            guard take(")") else { throw fail("an unclosed group") }
            return inner
        case 0x5B: return .set(try characterClass())  // '['
        case 0x2E: return .set(dot)  // '.'
        case 0x5C: return try escape(inClass: false).map(RegexNode.set) ?? .empty  // '\'
        case 0x5E: return .startAnchor
        case 0x24: return .endAnchor
        case 0x2A, 0x2B, 0x3F: throw fail("a quantifier with nothing to repeat")
        case 0x29: throw fail("an unopened group")
        default: return .set(CodePointSet(scalar))
        }
    }

    static let lineTerminators = CodePointSet([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029])
    static let digits = CodePointSet([0x30...0x39])
    static let word = CodePointSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let space = CodePointSet([
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029, 0x202F...0x202F,
        0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ])

    /// The set an escape stands for, after the backslash; `nil` for an escape that matches the
    /// empty string (none are supported, so never).
    private mutating func escape(inClass: Bool) throws(RegexError) -> CodePointSet? {
        guard let scalar = current else { throw fail("a backslash at the end") }
        position += 1
        switch Character(Unicode.Scalar(scalar) ?? " ") {
        case "d": return Self.digits
        case "D": return Self.digits.inverted
        case "w": return Self.word
        case "W": return Self.word.inverted
        case "s": return Self.space
        case "S": return Self.space.inverted
        case "t": return CodePointSet(0x09)
        case "n": return CodePointSet(0x0A)
        case "r": return CodePointSet(0x0D)
        case "f": return CodePointSet(0x0C)
        case "v": return CodePointSet(0x0B)
        case "0": return CodePointSet(0)
        case "b" where inClass: return CodePointSet(0x08)
        case "b", "B": throw fail("word boundaries are not supported")
        case "x": return CodePointSet(try hex(count: 2))
        case "u":
            if take("{") {
                var value: UInt32 = 0
                var count = 0
                while let next = current, let digit = Self.hexDigit(next) {
                    value = value << 4 | digit
                    count += 1
                    position += 1
                    guard count <= 6 else { throw fail("a \\u{…} escape that is too long") }
                }
                guard count > 0, take("}"), value <= 0x10FFFF else { throw fail("an invalid \\u{…} escape") }
                return CodePointSet(value)
            }
            return CodePointSet(try hex(count: 4))
        case "p", "P": throw fail("Unicode property escapes are not supported")
        case "k": throw fail("backreferences are not supported")
        case "1", "2", "3", "4", "5", "6", "7", "8", "9": throw fail("backreferences are not supported")
        case "c": throw fail("control escapes are not supported")
        default:
            // An escaped punctuation character stands for itself.
            // So does `\_`, which ECMA-262 reads as `_` outside Unicode mode, as validators do.
            guard scalar < 0x80, scalar == 0x5F || !(Self.word.contains(scalar)) else { throw fail("an unknown escape \\\(Character(Unicode.Scalar(scalar) ?? " "))") }
            return CodePointSet(scalar)
        }
    }

    private static func hexDigit(_ scalar: UInt32) -> UInt32? {
        switch scalar {
        case 0x30...0x39: scalar - 0x30
        case 0x41...0x46: scalar - 0x41 + 10
        case 0x61...0x66: scalar - 0x61 + 10
        default: nil
        }
    }

    private mutating func hex(count: Int) throws(RegexError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let scalar = current, let digit = Self.hexDigit(scalar) else { throw fail("an invalid hexadecimal escape") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func characterClass() throws(RegexError) -> CodePointSet {
        let negated = take("^")
        var set = CodePointSet.empty
        var first = true
        while true {
            guard let scalar = current else { throw fail("an unclosed character class") }
            if scalar == 0x5D, !first { position += 1; break }  // ']'
            first = false
            let low = try classAtom()
            if peek("-"), position + 1 < scalars.count, scalars[position + 1] != 0x5D {
                position += 1
                let high = try classAtom()
                guard case .single(let lowValue) = low, case .single(let highValue) = high else {
                    throw fail("a range between classes")
                }
                guard lowValue <= highValue else { throw fail("a range out of order") }
                set = set.union(CodePointSet([lowValue...highValue]))
            } else {
                switch low {
                case .single(let value): set = set.union(CodePointSet(value))
                case .set(let members): set = set.union(members)
                }
            }
        }
        return negated ? set.inverted : set
    }

    private enum ClassAtom {
        case single(UInt32)
        case set(CodePointSet)
    }

    private mutating func classAtom() throws(RegexError) -> ClassAtom {
        guard let scalar = current else { throw fail("an unclosed character class") }
        position += 1
        guard scalar == 0x5C else { return .single(scalar) }
        guard let set = try escape(inClass: true) else { return .set(.empty) }
        if set.ranges.count == 1, set.ranges[0].count == 1 { return .single(set.ranges[0].lowerBound) }
        return .set(set)
    }
}
