/// Cuts a template's source into tokens as jinja2's lexer does with `trim_blocks` and
/// `lstrip_blocks` on: text between tags with whitespace control applied (`{%-`, `-%}`, `{%+`,
/// `+%}`, the first newline after a block or comment tag dropped, the indentation before a block
/// or comment tag that starts a line dropped), and the names, literals and operators inside tags.
/// Line breaks are normalized to `\n`, and one trailing line break is dropped, as jinja2 does.
struct JinjaLexer {
    private let source: [Unicode.Scalar]
    private let lineStarts: [Int]
    private var position = 0
    private var tokens: [JinjaToken] = []
    /// Whether the last match ended a line, which lets `lstrip_blocks` strip text at the start.
    private var lineStarting = true

    /// The tokens of `text`, ending with `.endOfSource`.
    static func tokenize(_ text: String) throws(JinjaError) -> [JinjaToken] {
        var lexer = JinjaLexer(text)
        try lexer.run()
        return lexer.tokens
    }

    private init(_ text: String) {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.unicodeScalars.count)
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                scalars.append("\n")
                afterCarriageReturn = true
                continue
            }
            if !(scalar == "\n" && afterCarriageReturn) { scalars.append(scalar) }
            afterCarriageReturn = false
        }
        if scalars.last == "\n" { scalars.removeLast() }
        source = scalars
        var starts = [0]
        for (index, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(index + 1) }
        lineStarts = starts
    }

    /// The line and column of the scalar at `index`.
    private func location(_ index: Int) -> JinjaSourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return JinjaSourceLocation(line: low + 1, column: index - lineStarts[low] + 1)
    }

    private func scalar(at index: Int) -> Unicode.Scalar? {
        index < source.count ? source[index] : nil
    }

    private func matches(_ text: String, at index: Int) -> Bool {
        var current = index
        for scalar in text.unicodeScalars {
            guard self.scalar(at: current) == scalar else { return false }
            current += 1
        }
        return true
    }

    private func skipWhitespace(from index: Int) -> Int {
        var current = index
        while let scalar = scalar(at: current), scalar.isPythonWhitespace { current += 1 }
        return current
    }

    private mutating func append(_ kind: JinjaToken.Kind, at index: Int) {
        tokens.append(JinjaToken(kind: kind, location: location(index)))
    }

    private mutating func run() throws(JinjaError) {
        while position < source.count {
            var tagStart = position
            var opener: Unicode.Scalar?
            while tagStart + 1 < source.count {
                let next = source[tagStart + 1]
                if source[tagStart] == "{", next == "{" || next == "%" || next == "#" {
                    opener = next
                    break
                }
                tagStart += 1
            }
            guard let opener else {
                append(.text(String(String.UnicodeScalarView(source[position...]))), at: position)
                position = source.count
                break
            }
            var afterOpener = tagStart + 2
            var sign: Unicode.Scalar?
            if let next = scalar(at: afterOpener), next == "-" || next == "+" {
                sign = next
                afterOpener += 1
            }
            emitText(upTo: tagStart, sign: sign, stripsIndentation: opener != "{")
            lineStarting = false
            switch opener {
            case "#":
                try skipComment(from: afterOpener, start: tagStart)
            case "%":
                if let rawEnd = rawBeginEnd(from: afterOpener) {
                    try lexRaw(from: rawEnd, start: tagStart)
                } else {
                    append(.blockBegin, at: tagStart)
                    position = afterOpener
                    try lexTag(isBlock: true, start: tagStart)
                }
            default:
                append(.variableBegin, at: tagStart)
                position = afterOpener
                try lexTag(isBlock: false, start: tagStart)
            }
        }
        append(.endOfSource, at: source.count)
    }

    /// Emits the text from `position` to `end` with the whitespace control of the tag that
    /// follows: `-` strips all whitespace before it; otherwise, unless `+`, a block or comment
    /// tag preceded on its line only by spaces and tabs takes them away (`lstrip_blocks`).
    private mutating func emitText(upTo end: Int, sign: Unicode.Scalar?, stripsIndentation: Bool) {
        var textEnd = end
        if sign == "-" {
            while textEnd > position, source[textEnd - 1].isPythonWhitespace { textEnd -= 1 }
        } else if sign != "+", stripsIndentation {
            var lineStart = end
            while lineStart > position, source[lineStart - 1] != "\n" { lineStart -= 1 }
            if lineStart > position || lineStarting, lineStart < end,
                source[lineStart..<end].allSatisfy(\.isPythonWhitespace)
            {
                textEnd = lineStart
            }
        }
        if textEnd > position {
            append(.text(String(String.UnicodeScalarView(source[position..<textEnd]))), at: position)
        }
    }

    /// Skips a comment whose body starts at `index`, through its end and what the end trims.
    private mutating func skipComment(from index: Int, start: Int) throws(JinjaError) {
        var current = index
        while current < source.count {
            if source[current] == "+", matches("#}", at: current + 1) {
                position = current + 3
                lineStarting = false
                return
            }
            if source[current] == "-", matches("#}", at: current + 1) {
                position = skipWhitespace(from: current + 3)
                lineStarting = position > current + 3 && source[position - 1] == "\n"
                return
            }
            if matches("#}", at: current) {
                position = current + 2
                lineStarting = scalar(at: position) == "\n"
                if lineStarting { position += 1 }
                return
            }
            current += 1
        }
        throw .syntax("missing end of comment tag", at: location(start))
    }

    /// Where the opening `{% raw %}` tag ends, when the block tag opened before `index` is one.
    private func rawBeginEnd(from index: Int) -> Int? {
        var current = skipWhitespace(from: index)
        guard matches("raw", at: current) else { return nil }
        current = skipWhitespace(from: current + 3)
        if matches("-%}", at: current) { return skipWhitespace(from: current + 3) }
        if matches("%}", at: current) { return current + 2 }
        return nil
    }

    /// Emits the body of a `{% raw %}` block as text, through its `{% endraw %}`.
    private mutating func lexRaw(from index: Int, start: Int) throws(JinjaError) {
        lineStarting = index > 0 && source[index - 1] == "\n"
        position = index
        var current = index
        while current + 1 < source.count {
            if source[current] == "{", source[current + 1] == "%" {
                var afterOpener = current + 2
                var sign: Unicode.Scalar?
                if let next = scalar(at: afterOpener), next == "-" || next == "+" {
                    sign = next
                    afterOpener += 1
                }
                var tagEnd = skipWhitespace(from: afterOpener)
                if matches("endraw", at: tagEnd) {
                    tagEnd = skipWhitespace(from: tagEnd + 6)
                    var end: Int?
                    var endsLine = false
                    if matches("+%}", at: tagEnd) {
                        end = tagEnd + 3
                    } else if matches("-%}", at: tagEnd) {
                        let after = skipWhitespace(from: tagEnd + 3)
                        endsLine = after > tagEnd + 3 && source[after - 1] == "\n"
                        end = after
                    } else if matches("%}", at: tagEnd) {
                        endsLine = scalar(at: tagEnd + 2) == "\n"
                        end = tagEnd + 2 + (endsLine ? 1 : 0)
                    }
                    if let end {
                        emitText(upTo: current, sign: sign, stripsIndentation: true)
                        position = end
                        lineStarting = endsLine
                        return
                    }
                }
            }
            current += 1
        }
        throw .syntax("missing end of raw directive", at: location(start))
    }

    /// Lexes the inside of a `{% %}` or `{{ }}` tag through its end, which only counts where the
    /// brackets opened inside the tag are closed.
    private mutating func lexTag(isBlock: Bool, start: Int) throws(JinjaError) {
        var brackets: [Unicode.Scalar] = []
        while true {
            guard position < source.count else {
                throw .syntax("unexpected end of template, expected '\(isBlock ? "%}" : "}}")'", at: location(start))
            }
            if brackets.isEmpty, try lexTagEnd(isBlock: isBlock) { return }
            let scalar = source[position]
            if scalar.isPythonWhitespace {
                position = skipWhitespace(from: position)
            } else if let end = floatEnd(at: position) {
                let text = String(String.UnicodeScalarView(source[position..<end].filter { $0 != "_" }))
                guard let value = Double(text) else { throw .syntax("invalid number '\(text)'", at: location(position)) }
                append(.float(value), at: position)
                position = end
            } else if let (end, value) = try integer(at: position) {
                append(.integer(value), at: position)
                position = end
            } else if scalar.isIdentifierStart {
                var end = position + 1
                while let next = self.scalar(at: end), next.isIdentifierContinuation { end += 1 }
                append(.name(String(String.UnicodeScalarView(source[position..<end]))), at: position)
                position = end
            } else if scalar == "'" || scalar == "\"" {
                try lexString(quote: scalar)
            } else {
                try lexOperator(&brackets)
            }
        }
    }

    /// Consumes the end of the tag when it is at `position`: `-%}` and `-}}` strip the whitespace
    /// after them, `%}` drops one newline after it (`trim_blocks`), `+%}` keeps it.
    private mutating func lexTagEnd(isBlock: Bool) throws(JinjaError) -> Bool {
        let closer = isBlock ? "%}" : "}}"
        let start = position
        if isBlock, source[position] == "+", matches(closer, at: position + 1) {
            position += 3
            lineStarting = false
        } else if source[position] == "-", matches(closer, at: position + 1) {
            position = skipWhitespace(from: position + 3)
            lineStarting = position > start + 3 && source[position - 1] == "\n"
        } else if matches(closer, at: position) {
            position += 2
            lineStarting = false
            if isBlock, scalar(at: position) == "\n" {
                position += 1
                lineStarting = true
            }
        } else {
            return false
        }
        append(isBlock ? .blockEnd : .variableEnd, at: start)
        return true
    }

    /// The end of `(\d+_)*\d+` at `index`.
    private func digitsEnd(at index: Int) -> Int? {
        guard let first = scalar(at: index), first.isASCIIDigit else { return nil }
        var end = index + 1
        while let next = scalar(at: end) {
            if next.isASCIIDigit {
                end += 1
            } else if next == "_", let after = scalar(at: end + 1), after.isASCIIDigit {
                end += 2
            } else {
                break
            }
        }
        return end
    }

    /// The end of a float literal at `index` (digits with a fraction, an exponent or both), not
    /// right after a dot.
    private func floatEnd(at index: Int) -> Int? {
        guard index == 0 || source[index - 1] != ".", let integerEnd = digitsEnd(at: index) else { return nil }
        func exponentEnd(at start: Int) -> Int? {
            guard let e = scalar(at: start), e == "e" || e == "E" else { return nil }
            var digits = start + 1
            if let sign = scalar(at: digits), sign == "+" || sign == "-" { digits += 1 }
            return digitsEnd(at: digits)
        }
        if scalar(at: integerEnd) == ".", let fractionEnd = digitsEnd(at: integerEnd + 1) {
            return exponentEnd(at: fractionEnd) ?? fractionEnd
        }
        return exponentEnd(at: integerEnd)
    }

    /// An integer literal at `index` (decimal, or `0b`, `0o`, `0x` with digits) and its value.
    private func integer(at index: Int) throws(JinjaError) -> (Int, Int)? {
        guard let first = scalar(at: index), first.isASCIIDigit else { return nil }
        var radix = 10
        var digitsStart = index
        if first == "0", let marker = scalar(at: index + 1) {
            switch marker {
            case "b", "B": radix = 2
            case "o", "O": radix = 8
            case "x", "X": radix = 16
            default: break
            }
        }
        var digits = ""
        var end = index
        if radix != 10 {
            digitsStart = index + 2
            end = digitsStart
            while true {
                var next = end
                if scalar(at: next) == "_" { next += 1 }
                guard let digit = scalar(at: next), Int(String(digit), radix: radix) != nil else { break }
                digits.unicodeScalars.append(digit)
                end = next + 1
            }
            if digits.isEmpty {
                radix = 10
                end = index
            }
        }
        if radix == 10 {
            digits = ""
            end = index + 1
            digits.unicodeScalars.append(first)
            while true {
                var next = end
                if scalar(at: next) == "_" { next += 1 }
                guard let digit = scalar(at: next), digit.isASCIIDigit, first != "0" || digit == "0" else { break }
                digits.unicodeScalars.append(digit)
                end = next + 1
            }
        }
        guard let value = Int(digits, radix: radix) else {
            throw .syntax("the integer literal \(digits) is too large", at: location(index))
        }
        return (end, value)
    }

    /// Lexes a string literal at `position`, resolving its escapes as Python's `unicode-escape`.
    private mutating func lexString(quote: Unicode.Scalar) throws(JinjaError) {
        let start = position
        var current = position + 1
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = scalar(at: current) else {
                throw .syntax("unexpected char '\(quote)' (an unterminated string)", at: location(start))
            }
            if scalar == quote { break }
            guard scalar == "\\" else {
                value.append(scalar)
                current += 1
                continue
            }
            guard let escaped = self.scalar(at: current + 1) else {
                throw .syntax("unexpected char '\(quote)' (an unterminated string)", at: location(start))
            }
            current += 2
            switch escaped {
            case "\n": break
            case "\\", "'", "\"": value.append(escaped)
            case "a": value.append("\u{07}")
            case "b": value.append("\u{08}")
            case "f": value.append("\u{0C}")
            case "n": value.append("\n")
            case "r": value.append("\r")
            case "t": value.append("\t")
            case "v": value.append("\u{0B}")
            case "0"..."7":
                var code = Int(escaped.value - 48)
                var count = 1
                while count < 3, let digit = self.scalar(at: current), ("0"..."7").contains(digit) {
                    code = code * 8 + Int(digit.value - 48)
                    current += 1
                    count += 1
                }
                if let decoded = Unicode.Scalar(code) { value.append(decoded) }
            case "x", "u", "U":
                let length = escaped == "x" ? 2 : escaped == "u" ? 4 : 8
                let hex = source[min(current, source.count)..<min(current + length, source.count)]
                guard hex.count == length, let code = UInt32(String(String.UnicodeScalarView(hex)), radix: 16),
                    let decoded = Unicode.Scalar(code)
                else {
                    throw .syntax("truncated or invalid \\\(escaped) escape in a string", at: location(current - 2))
                }
                value.append(decoded)
                current += length
            case "N":
                throw .unsupported("string escape '\\N{...}'", at: location(current - 2))
            default:
                value.append("\\")
                value.append(escaped)
            }
        }
        append(.string(String(value)), at: start)
        position = current + 1
    }

    /// Lexes an operator or punctuation at `position`, keeping track of open brackets.
    private mutating func lexOperator(_ brackets: inout [Unicode.Scalar]) throws(JinjaError) {
        for symbol in ["//", "**", "==", "!=", ">=", "<="] where matches(symbol, at: position) {
            append(.symbol(symbol), at: position)
            position += 2
            return
        }
        let scalar = source[position]
        guard "+-/*%~[](){}><=.:|,;".unicodeScalars.contains(scalar) else {
            throw .syntax("unexpected char '\(scalar)'", at: location(position))
        }
        switch scalar {
        case "(": brackets.append(")")
        case "[": brackets.append("]")
        case "{": brackets.append("}")
        case ")", "]", "}":
            guard let expected = brackets.popLast() else { throw .syntax("unexpected '\(scalar)'", at: location(position)) }
            guard expected == scalar else { throw .syntax("unexpected '\(scalar)', expected '\(expected)'", at: location(position)) }
        default: break
        }
        append(.symbol(String(scalar)), at: position)
        position += 1
    }
}

extension Unicode.Scalar {
    /// Whether Python's `str.isspace` (and so `\s`, `strip`, `split`) counts the scalar as
    /// whitespace.
    var isPythonWhitespace: Bool {
        switch value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    var isASCIIDigit: Bool { ("0"..."9").contains(self) }

    /// Whether the scalar may start a name.
    var isIdentifierStart: Bool { self == "_" || properties.isAlphabetic }

    /// Whether the scalar may continue a name.
    var isIdentifierContinuation: Bool {
        if isIdentifierStart { return true }
        switch properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .connectorPunctuation: return true
        default: return false
        }
    }
}
