/// Reads GBNF, the grammar format of llama.cpp (`grammars/README.md` there): rules
/// `name ::= alternatives`, one per line (newlines are allowed after `::=`, after `|` and inside
/// parentheses), names of letters, digits, `-` and `_`; string literals `"…"`, character classes
/// `[a-z]` and `[^…]`, `.` for any character, grouping, `|`, and the repetitions `* + ?` `{m}`
/// `{m,}` `{m,n}`; the escapes `\n \r \t \\ \" \[ \] \- \xHH \uHHHH \UHHHHHHHH`; `#` comments to
/// the end of the line. Token references (`<[id]>`, `!<…>`) are refused: a grammar here reads
/// text, not token ids.
struct GBNFParser {
    private let source: GrammarSource
    private var position = 0
    /// The rule being read, for errors.
    private var currentRule: String?

    /// The largest count a repetition may give (llama.cpp's limit).
    static let maximumRepetition = 2000

    /// The rules of `text`, in order.
    static func parse(_ text: String) throws(GrammarError) -> GrammarRules {
        var parser = GBNFParser(text)
        return try parser.grammar()
    }

    private init(_ text: String) {
        source = GrammarSource(text)
    }

    private var current: Unicode.Scalar? { source[position] }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        source[position + offset]
    }

    private func place(_ offset: Int) -> GrammarRules.Place {
        source.place(offset)
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> GrammarError {
        source.error(reason, at: offset ?? position, rule: currentRule)
    }

    /// What stands at the current position, for errors.
    private var found: String { source.found(at: position) }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
        default: false
        }
    }

    /// Skips spaces, tabs and comments, and line breaks where `newlines` allows them.
    private mutating func skipSpace(newlines: Bool) {
        while let scalar = current {
            switch scalar {
            case " ", "\t": position += 1
            case "\r" where newlines, "\n" where newlines: position += 1
            case "#": while let next = current, next != "\n", next != "\r" { position += 1 }
            default: return
            }
        }
    }

    private mutating func grammar() throws(GrammarError) -> GrammarRules {
        var rules: [GrammarRules.Rule] = []
        skipSpace(newlines: true)
        while current != nil {
            rules.append(try rule())
        }
        return GrammarRules(rules: rules, start: "root")
    }

    private mutating func name() throws(GrammarError) -> String {
        let start = position
        while let scalar = current, Self.isNameCharacter(scalar) { position += 1 }
        guard position > start else { throw fail("expected a rule name, found \(found)") }
        return source.text(start, position)
    }

    private mutating func rule() throws(GrammarError) -> GrammarRules.Rule {
        currentRule = nil
        let start = position
        let name = try self.name()
        currentRule = name
        skipSpace(newlines: false)
        guard current == ":", peek(1) == ":", peek(2) == "=" else { throw fail("expected '::=' after the rule name, found \(found)") }
        position += 3
        skipSpace(newlines: true)
        let body = try alternatives(nested: false)
        switch current {
        case nil: break
        case "\r", "\n": position += 1
        case ")": throw fail("a ')' that closes no group")
        default: throw fail("expected an element, '|' or the end of the line, found \(found)")
        }
        skipSpace(newlines: true)
        return GrammarRules.Rule(name: name, body: body, place: place(start))
    }

    private mutating func alternatives(nested: Bool) throws(GrammarError) -> GrammarNode {
        var alternatives = [try sequence(nested: nested)]
        while current == "|" {
            position += 1
            skipSpace(newlines: true)
            alternatives.append(try sequence(nested: nested))
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func sequence(nested: Bool) throws(GrammarError) -> GrammarNode {
        var items: [GrammarNode] = []
        while let scalar = current {
            let start = position
            switch scalar {
            case "\"":
                position += 1
                var literal: [Unicode.Scalar] = []
                while current != "\"" {
                    guard current != nil else { throw fail("a string that is not closed", at: start) }
                    literal.append(try character())
                }
                position += 1
                items.append(.literal(literal))
            case "[":
                items.append(.characters(try characterClass()))
            case "<", "!":
                throw fail("token references are not supported: a grammar here reads text")
            case "(":
                position += 1
                skipSpace(newlines: true)
                let inner = try alternatives(nested: true)
                guard current == ")" else { throw fail("expected ')' to close the group opened at \(describe(start)), found \(found)") }
                position += 1
                items.append(inner)
            case ".":
                position += 1
                items.append(.characters(.all))
            case "*", "+", "?", "{":
                guard let last = items.popLast() else { throw fail("'\(Character(scalar))' with nothing before it to repeat") }
                let (minimum, maximum) = try repetition()
                items.append(.repetition(last, minimum: minimum, maximum: maximum))
            case _ where Self.isNameCharacter(scalar):
                let name = try self.name()
                items.append(.reference(name, place: place(start)))
            default:
                return items.count == 1 ? items[0] : .sequence(items)
            }
            skipSpace(newlines: nested)
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private func describe(_ offset: Int) -> String {
        let place = place(offset)
        return "line \(place.line), column \(place.column)"
    }

    /// `*`, `+`, `?`, `{m}`, `{m,}` or `{m,n}`, from the current character.
    private mutating func repetition() throws(GrammarError) -> (Int, Int?) {
        let start = position
        let scalar = source.scalars[position]
        position += 1
        switch scalar {
        case "*": return (0, nil)
        case "+": return (1, nil)
        case "?": return (0, 1)
        default: break
        }
        var at = position
        defer { position = at }
        return try source.braceRepetition(
            at: &at, from: start, limit: Self.maximumRepetition, minimumMayBeOmitted: false, rule: currentRule)
    }

    private mutating func count() throws(GrammarError) -> Int {
        var at = position
        defer { position = at }
        return try source.count(at: &at, limit: Self.maximumRepetition, rule: currentRule)
    }

    /// A character class, from its `[`.
    private mutating func characterClass() throws(GrammarError) -> CodePointSet {
        let start = position
        position += 1
        let negated = current == "^"
        if negated { position += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        while current != "]" {
            guard current != nil else { throw fail("a character class that is not closed", at: start) }
            let rangeStart = position
            let low = try character()
            var high = low
            if current == "-", let next = peek(1), next != "]" {
                position += 1
                high = try character()
                guard low.value <= high.value else { throw fail("a range whose end comes before its start", at: rangeStart) }
            }
            ranges.append(low.value...high.value)
        }
        position += 1
        guard !ranges.isEmpty else { throw fail("an empty character class", at: start) }
        let set = CodePointSet(ranges)
        return negated ? set.inverted : set
    }

    /// One character of a literal or a class: itself, or an escape.
    private mutating func character() throws(GrammarError) -> Unicode.Scalar {
        guard let scalar = current else { throw fail("unexpected end of the grammar") }
        let start = position
        position += 1
        guard scalar == "\\" else { return scalar }
        guard let escaped = current else { throw fail("a backslash at the end of the grammar", at: start) }
        position += 1
        switch escaped {
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "\\", "\"", "[", "]", "-": return escaped
        case "x": return try hex(digits: 2, from: start)
        case "u": return try hex(digits: 4, from: start)
        case "U": return try hex(digits: 8, from: start)
        default: throw fail("an unknown escape '\\\(Character(escaped))'", at: start)
        }
    }

    private mutating func hex(digits: Int, from start: Int) throws(GrammarError) -> Unicode.Scalar {
        var at = position
        defer { position = at }
        return try source.hexScalar(digits: digits, at: &at, escape: start, rule: currentRule)
    }
}
