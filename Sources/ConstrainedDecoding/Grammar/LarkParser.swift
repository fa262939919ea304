import PartialJSON

/// Reads Lark grammars as llguidance takes them (its `docs/syntax.md`): rules `name: …` (lower
/// case) and terminals `NAME: …` (upper case), one per line, with alternatives continued on
/// lines that start with `|`; string literals `"…"` (with `i` for any case), ranges `"a".."z"`,
/// regular expressions `/…/` (flags `i` and `s`), grouping, `[…]` for optional, `? * +`,
/// `~ n`, `~ n..m`, `{n}`, `{n,}`, `{,m}`, `{n,m}`; aliases `-> name`, rule modifiers `?`/`!`
/// and priorities `.n`, which do not change the language, are read and set aside; `%ignore`,
/// `%import common.NAME [-> ALIAS]` and `%import common (A, B)`; `%json {…}` embedding a JSON
/// Schema; `//` and `#` comments. Refused, naming the line and column: special tokens (`<…>`),
/// grammar references (`@name`), rule templates and options (`name{x}:`, `name[lazy]:`),
/// `%declare`, `%override`, grammar options other than `%llguidance {}`, and imports other than
/// `common`.
struct LarkParser {
    private let source: GrammarSource
    private var position = 0
    /// The rule being read, for errors.
    private var currentRule: String?
    private var rules: [GrammarRules.Rule] = []
    /// What `%ignore` skips between terminals, each with where it was written.
    private var ignored: [GrammarNode] = []

    /// The largest count a repetition may give.
    static let maximumRepetition = 2000
    /// What `.` matches in a Lark regular expression (Python's): anything but a line feed.
    static let dot = CodePointSet.all.subtracting(CodePointSet(0x0A))
    /// The names given to what the front end adds: they cannot be written in a grammar.
    static let ignoreName = "%ignore"
    static let startName = "%start"

    /// The rules and terminals of `text`, and what `%ignore` skips.
    static func parse(_ text: String) throws(GrammarError) -> (rules: [GrammarRules.Rule], ignored: [GrammarNode]) {
        var parser = LarkParser(text)
        try parser.grammar()
        return (parser.rules, parser.ignored)
    }

    private init(_ text: String) {
        source = GrammarSource(text)
    }

    private var current: Unicode.Scalar? { source[position] }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        source[position + offset]
    }

    private func fail(_ reason: String, at offset: Int? = nil) -> GrammarError {
        source.error(reason, at: offset ?? position, rule: currentRule)
    }

    /// What stands at the current position, for errors.
    private var found: String { source.found(at: position) }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "_": true
        default: false
        }
    }

    private func isNameCharacter(at offset: Int) -> Bool {
        guard let scalar = source[offset] else { return false }
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_": return true
        case "-": return source[offset + 1] != ">"
        default: return false
        }
    }

    /// Whether `name` is a terminal's: its first letter is upper case.
    static func isTerminal(_ name: String) -> Bool {
        name.unicodeScalars.first { $0 != "_" }.map { "A"..."Z" ~= $0 } ?? false
    }

    /// Skips spaces, tabs and comments (`//` and `#` to the end of the line), and line breaks
    /// where `newlines` allows them.
    private mutating func skipSpace(newlines: Bool) {
        while let scalar = current {
            switch scalar {
            case " ", "\t": position += 1
            case "\r" where newlines, "\n" where newlines: position += 1
            case "#": skipLine()
            case "/" where peek(1) == "/": skipLine()
            default: return
            }
        }
    }

    private mutating func skipLine() {
        while let next = current, next != "\n", next != "\r" { position += 1 }
    }

    private mutating func name() throws(GrammarError) -> String {
        let start = position
        guard let first = current, Self.isNameStart(first) else { throw fail("expected a name, found \(found)") }
        while isNameCharacter(at: position) { position += 1 }
        return source.text(start, position)
    }

    private mutating func grammar() throws(GrammarError) {
        skipSpace(newlines: true)
        while current != nil {
            if current == "%" {
                try directive()
            } else {
                try definition()
            }
            switch current {
            case nil: break
            case "\r", "\n": position += 1
            case ")", "]": throw fail("a '\(Character(current ?? " "))' that closes nothing")
            default: throw fail("expected an element, '|' or the end of the line, found \(found)")
            }
            skipSpace(newlines: true)
        }
    }

    /// `name: alternatives` or `NAME: alternatives`, with its modifiers and priority.
    private mutating func definition() throws(GrammarError) {
        currentRule = nil
        while current == "?" || current == "!" { position += 1 }
        let start = position
        let name = try self.name()
        currentRule = name
        skipSpace(newlines: false)
        if current == "{" { throw fail("rule templates are not supported") }
        if current == "[" { throw fail("rule options ([lazy], [stop=…], [capture], …) are not supported") }
        if current == "." {
            // A priority, which orders a lexer's choices and does not change the language.
            position += 1
            if current == "-" { position += 1 }
            let digits = position
            while let scalar = current, "0"..."9" ~= scalar { position += 1 }
            guard position > digits else { throw fail("expected a priority after '.', found \(found)") }
            skipSpace(newlines: false)
        }
        guard current == ":" else { throw fail("expected ':' after the name, found \(found)") }
        position += 1
        skipSpace(newlines: false)
        let isTerminal = Self.isTerminal(name)
        let body = try alternatives(nested: false, inTerminal: isTerminal)
        rules.append(GrammarRules.Rule(name: name, body: body, place: source.place(start), isTerminal: isTerminal))
        currentRule = nil
    }

    /// `%ignore`, `%import`, `%llguidance`; the others refused.
    private mutating func directive() throws(GrammarError) {
        currentRule = nil
        let start = position
        position += 1
        let keyword = try name()
        skipSpace(newlines: false)
        switch keyword {
        case "ignore":
            ignored.append(try alternatives(nested: false, inTerminal: true))
        case "import":
            try importCommon()
        case "llguidance":
            guard case .object(let members) = try jsonObject(), members.isEmpty else {
                throw fail("grammar options are not supported; only '%llguidance {}' is read", at: start)
            }
        case "declare", "override", "extend":
            throw fail("'%\(keyword)' is not supported", at: start)
        default:
            throw fail("an unknown directive '%\(keyword)'", at: start)
        }
    }

    /// `%import common.NAME [-> ALIAS]` or `%import common (NAME, …)`.
    private mutating func importCommon() throws(GrammarError) {
        let start = position
        let module = try name()
        guard module == "common" else { throw fail("only Lark's 'common' module can be imported", at: start) }
        var names: [(name: String, alias: String, place: Int)] = []
        if current == "." {
            position += 1
            let place = position
            let name = try self.name()
            skipSpace(newlines: false)
            var alias = name
            if current == "-", peek(1) == ">" {
                position += 2
                skipSpace(newlines: false)
                alias = try self.name()
            }
            names.append((name, alias, place))
        } else {
            skipSpace(newlines: false)
            guard current == "(" else { throw fail("expected '.NAME' or '(' after 'common', found \(found)") }
            position += 1
            while true {
                skipSpace(newlines: true)
                let place = position
                let name = try self.name()
                names.append((name, name, place))
                skipSpace(newlines: true)
                guard current == "," else { break }
                position += 1
            }
            guard current == ")" else { throw fail("expected ',' or ')' in the list of names, found \(found)") }
            position += 1
        }
        skipSpace(newlines: false)
        for entry in names {
            guard let pattern = LarkCommon.terminals[entry.name] else {
                throw fail("Lark's 'common' module has no terminal '\(entry.name)'", at: entry.place)
            }
            let body = try regex(pattern, flags: [], at: entry.place)
            rules.append(GrammarRules.Rule(name: entry.alias, body: body, place: source.place(entry.place), isTerminal: Self.isTerminal(entry.alias)))
        }
    }

    /// Alternatives, each possibly with an alias; outside parentheses a line that starts with
    /// `|` continues them.
    private mutating func alternatives(nested: Bool, inTerminal: Bool) throws(GrammarError) -> GrammarNode {
        var alternatives = [try sequence(nested: nested, inTerminal: inTerminal)]
        while true {
            if current == "|" {
                // Outside parentheses, a '|' at the end of the line leaves an empty alternative.
                position += 1
                skipSpace(newlines: nested)
                alternatives.append(try sequence(nested: nested, inTerminal: inTerminal))
                continue
            }
            guard !nested, current == "\n" || current == "\r" else { break }
            // A following line that starts with '|' continues the alternatives.
            let end = position
            skipSpace(newlines: true)
            guard current == "|" else {
                position = end
                break
            }
        }
        return alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    private mutating func sequence(nested: Bool, inTerminal: Bool) throws(GrammarError) -> GrammarNode {
        var items: [GrammarNode] = []
        while let scalar = current {
            let start = position
            switch scalar {
            case "\"":
                let literal = try string()
                if current == ".", peek(1) == "." {
                    position += 2
                    skipSpace(newlines: false)
                    let end = try string()
                    guard literal.count == 1, end.count == 1, let low = literal.first, let high = end.first, low.value <= high.value else {
                        throw fail("a range needs two one-character strings, the first not above the second", at: start)
                    }
                    items.append(.characters(CodePointSet([low.value...high.value])))
                } else if current == "i" && !isNameCharacter(at: position + 1) {
                    position += 1
                    var folded: [GrammarNode] = []
                    for scalar in literal {
                        folded.append(.characters(CodePointSet(scalar.value).addingCaseVariants ?? CodePointSet(scalar.value)))
                    }
                    items.append(.sequence(folded))
                } else {
                    items.append(.literal(literal))
                }
            case "/" where peek(1) != "/":
                items.append(try regexLiteral())
            case "(", "[":
                position += 1
                skipSpace(newlines: true)
                let inner = try alternatives(nested: true, inTerminal: inTerminal)
                let closing: Unicode.Scalar = scalar == "(" ? ")" : "]"
                guard current == closing else { throw fail("expected '\(Character(closing))' to close the group opened at \(describe(start)), found \(found)") }
                position += 1
                items.append(scalar == "(" ? inner : .repetition(inner, minimum: 0, maximum: 1))
            case "%":
                position += 1
                let keyword = try name()
                guard keyword == "json" else { throw fail("'%\(keyword)' cannot stand inside a rule", at: start) }
                guard !inTerminal else { throw fail("'%json' cannot stand inside a terminal or '%ignore': a JSON value is not a regular language", at: start) }
                skipSpace(newlines: false)
                items.append(.jsonSchema(try jsonObject(), place: source.place(start)))
            case "<":
                throw fail("special tokens are not supported: a grammar here reads text")
            case "@":
                throw fail("references to other grammars are not supported")
            case "?", "*", "+", "{", "~":
                guard let last = items.popLast() else { throw fail("'\(Character(scalar))' with nothing before it to repeat") }
                let (minimum, maximum) = try repetition()
                items.append(.repetition(last, minimum: minimum, maximum: maximum))
            case "-" where peek(1) == ">":
                // An alias names the tree node; it does not change the language.
                position += 2
                skipSpace(newlines: false)
                _ = try name()
            case _ where Self.isNameStart(scalar):
                let name = try self.name()
                items.append(.reference(name, place: source.place(start)))
            default:
                return items.count == 1 ? items[0] : .sequence(items)
            }
            skipSpace(newlines: nested)
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private func describe(_ offset: Int) -> String {
        let place = source.place(offset)
        return "line \(place.line), column \(place.column)"
    }

    /// `? * +`, `~ n`, `~ n..m`, `{n}`, `{n,}`, `{,m}` or `{n,m}`, from the current character.
    private mutating func repetition() throws(GrammarError) -> (Int, Int?) {
        let start = position
        let scalar = source.scalars[position]
        position += 1
        switch scalar {
        case "*": return (0, nil)
        case "+": return (1, nil)
        case "?": return (0, 1)
        case "~":
            skipSpace(newlines: false)
            let minimum = try count()
            var maximum = minimum
            if current == ".", peek(1) == "." {
                position += 2
                maximum = try count()
            }
            guard maximum >= minimum else { throw fail("a repetition whose maximum is below its minimum", at: start) }
            return (minimum, maximum)
        default: break
        }
        var at = position
        defer { position = at }
        return try source.braceRepetition(
            at: &at, from: start, limit: Self.maximumRepetition, minimumMayBeOmitted: true, rule: currentRule)
    }

    private mutating func count() throws(GrammarError) -> Int {
        var at = position
        defer { position = at }
        return try source.count(at: &at, limit: Self.maximumRepetition, rule: currentRule)
    }

    /// A string literal, from its opening quote, with Python's escapes; an unknown escape keeps
    /// its backslash, as Python does.
    private mutating func string() throws(GrammarError) -> [Unicode.Scalar] {
        let start = position
        position += 1
        var scalars: [Unicode.Scalar] = []
        while current != "\"" {
            guard let scalar = current, scalar != "\n" else { throw fail("a string that is not closed", at: start) }
            position += 1
            guard scalar == "\\" else {
                scalars.append(scalar)
                continue
            }
            guard let escaped = current else { throw fail("a string that is not closed", at: start) }
            let escapeStart = position - 1
            position += 1
            switch escaped {
            case "n": scalars.append("\n")
            case "r": scalars.append("\r")
            case "t": scalars.append("\t")
            case "f": scalars.append("\u{0C}")
            case "v": scalars.append("\u{0B}")
            case "0": scalars.append("\u{00}")
            case "\\", "\"", "'": scalars.append(escaped)
            case "x": scalars.append(try hex(digits: 2, from: escapeStart))
            case "u": scalars.append(try hex(digits: 4, from: escapeStart))
            case "U": scalars.append(try hex(digits: 8, from: escapeStart))
            default: scalars += ["\\", escaped]
            }
        }
        position += 1
        return scalars
    }

    private mutating func hex(digits: Int, from start: Int) throws(GrammarError) -> Unicode.Scalar {
        var at = position
        defer { position = at }
        return try source.hexScalar(digits: digits, at: &at, escape: start, rule: currentRule)
    }

    /// `/…/flags`: the regular expression, which ends at the first `/` that no backslash escapes.
    private mutating func regexLiteral() throws(GrammarError) -> GrammarNode {
        let start = position
        position += 1
        let patternStart = position
        while current != "/" {
            guard let scalar = current, scalar != "\n" else { throw fail("a regular expression that is not closed", at: start) }
            position += scalar == "\\" && peek(1) != nil && peek(1) != "\n" ? 2 : 1
        }
        let pattern = source.text(patternStart, position)
        position += 1
        var flags: Set<Unicode.Scalar> = []
        while let flag = current, "a"..."z" ~= flag {
            guard flag == "i" || flag == "s" else { throw fail("the regular expression flag '\(Character(flag))' is not supported (only 'i' and 's' are)") }
            flags.insert(flag)
            position += 1
        }
        return try regex(pattern, flags: flags, at: start)
    }

    /// The language of `pattern`, with Lark's meaning of `.` and the flags `i` and `s`.
    private func regex(_ pattern: String, flags: Set<Unicode.Scalar>, at start: Int) throws(GrammarError) -> GrammarNode {
        var node: RegexNode
        do {
            node = try RegexParser.wholeMatchLanguage(pattern, dot: flags.contains("s") ? .all : Self.dot)
        } catch {
            throw fail("the regular expression cannot be enforced: \(error.reason)", at: start)
        }
        if flags.contains("i") {
            guard let folded = node.ignoringCase else {
                throw fail("the flag 'i' cannot apply to a negated class here; list both cases in the class", at: start)
            }
            node = folded
        }
        do {
            return .regex(try CodePointAutomaton(node))
        } catch {
            throw fail("the regular expression cannot be enforced: \(error.reason)", at: start)
        }
    }

    /// A JSON object, from its `{`, through the matching `}`.
    private mutating func jsonObject() throws(GrammarError) -> JSONValue {
        let start = position
        guard current == "{" else { throw fail("expected a JSON object, found \(found)") }
        var depth = 0
        var inString = false
        while let scalar = current {
            position += 1
            if inString {
                if scalar == "\\" { position += 1 } else if scalar == "\"" { inString = false }
                continue
            }
            switch scalar {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 {
                    do {
                        return try JSONValue(parsing: source.text(start, position), maximumDepth: JSONValue.maximumSchemaDepth)
                    } catch {
                        throw fail("the JSON is not valid: \(error.description)", at: start)
                    }
                }
            default: break
            }
        }
        throw fail("a JSON object that is not closed", at: start)
    }
}
