/// The state machine of ``PartialJSONParser``: a pushdown automaton over bytes that appends what
/// it reads to the parse storage.
///
/// It is a value type so that its fields are accessed without exclusivity checks in the inner
/// loop; ``ParseStorage`` holds it, so that snapshots read the buffers it writes.
struct ParserCore {
    enum State: UInt8 {
        case value, valueOrClose, keyOrClose, key, colon, afterValue, done
        case string, stringUTF8, escape, unicodeEscape, lowSurrogateBackslash, lowSurrogateU
        case numberMinus, numberZero, numberInteger, numberDot, numberFraction
        case numberExponentMark, numberExponentSign, numberExponent
        case literal, failed
    }

    let maximumDepth: Int
    var bytes = GrowableBuffer<UInt8>(capacity: 256)
    var nodes = GrowableBuffer<ParsedNode>(capacity: 64)
    /// The completion clock: how many values have completed.
    var clock = 0
    var state = State.value
    var failure: JSONParseError?
    /// Indices of the open arrays and objects, outermost first.
    var stack: [Int] = []

    // Position of the next byte in the whole stream.
    var consumed = 0
    var line = 1
    var lineStart = 0

    // The string being read.
    var stringIsKey = false
    var stringStart = 0
    /// The bytes of an incomplete UTF-8 sequence already appended (hidden from snapshots).
    var utf8Pending = 0
    var utf8Needed = 0
    var utf8Low: UInt8 = 0x80
    var utf8High: UInt8 = 0xBF
    var escapeValue: UInt32 = 0
    var escapeDigits = 0
    var highSurrogate: UInt32 = 0
    // The member name read last, waiting for its value.
    var keyStart = 0
    var keyEnd = 0
    // The number or literal being read.
    var numberStart = 0
    var literal = ParsedNode.Kind.null
    var literalIndex = 0

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// What a snapshot taken now may show: the nodes created, the completion clock, and the bytes
    /// of string content (an incomplete UTF-8 sequence excluded).
    var snapshotBounds: (nodeCount: Int, clock: Int, byteCount: Int) {
        (nodes.count, clock, bytes.count - utf8Pending)
    }

    // MARK: Feeding

    mutating func feed(_ input: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        if state == .failed, let failure { throw failure }
        guard let p = input.baseAddress else { return }
        let n = input.count
        var i = 0
        defer { consumed += i }
        while i < n {
            let c = p[i]
            switch state {
            case .string:
                let runStart = i
                scan: while i < n {
                    let b = p[i]
                    if b < 0x80 {
                        if b >= 0x20 && b != 0x22 && b != 0x5C { i += 1; continue }
                        break scan
                    }
                    // A multi-byte sequence wholly inside this chunk is validated in place.
                    let (needed, low, high) = Self.utf8Lead(b)
                    guard needed > 0, i + needed < n, p[i + 1] >= low, p[i + 1] <= high else { break scan }
                    var k = 2
                    while k <= needed {
                        if p[i + k] & 0xC0 != 0x80 { break scan }
                        k += 1
                    }
                    i += needed + 1
                }
                if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(start: p + runStart, count: i - runStart)) }
                if i == n { break }
                let b = p[i]
                if b == 0x22 {
                    endString()
                } else if b == 0x5C {
                    state = .escape
                } else if b < 0x20 {
                    try fail(.controlCharacterInString, at: i)
                } else {
                    let (needed, low, high) = Self.utf8Lead(b)
                    guard needed > 0 else { try fail(.invalidUTF8, at: i, expected: "a UTF-8 lead byte") }
                    bytes.append(b)
                    utf8Pending = 1
                    utf8Needed = needed
                    utf8Low = low
                    utf8High = high
                    state = .stringUTF8
                }
                i += 1

            case .stringUTF8:
                guard c >= utf8Low, c <= utf8High else { try fail(.invalidUTF8, at: i) }
                bytes.append(c)
                utf8Needed -= 1
                utf8Low = 0x80
                utf8High = 0xBF
                if utf8Needed == 0 {
                    utf8Pending = 0
                    state = .string
                } else {
                    utf8Pending += 1
                }
                i += 1

            case .value, .valueOrClose:
                if Self.isWhitespace(c) {
                    skipWhitespace(c, at: i)
                } else if c == 0x5D, state == .valueOrClose {
                    closeContainer()
                } else {
                    try beginValue(c, at: i)
                }
                i += 1

            case .keyOrClose, .key:
                if Self.isWhitespace(c) {
                    skipWhitespace(c, at: i)
                } else if c == 0x22 {
                    stringIsKey = true
                    stringStart = bytes.count
                    state = .string
                } else if c == 0x7D, state == .keyOrClose {
                    closeContainer()
                } else {
                    try fail(.unexpectedByte(c), at: i)
                }
                i += 1

            case .colon:
                if Self.isWhitespace(c) {
                    skipWhitespace(c, at: i)
                } else if c == 0x3A {
                    state = .value
                } else {
                    try fail(.unexpectedByte(c), at: i)
                }
                i += 1

            case .afterValue:
                if Self.isWhitespace(c) {
                    skipWhitespace(c, at: i)
                } else {
                    let inObject = nodes[stack[stack.count - 1]].kind == .object
                    if c == 0x2C {
                        state = inObject ? .key : .value
                    } else if c == (inObject ? 0x7D : 0x5D) {
                        closeContainer()
                    } else {
                        try fail(.unexpectedByte(c), at: i)
                    }
                }
                i += 1

            case .done:
                guard Self.isWhitespace(c) else { try fail(.unexpectedByte(c), at: i) }
                skipWhitespace(c, at: i)
                i += 1

            case .escape:
                let unescaped: UInt8
                switch c {
                case 0x22, 0x5C, 0x2F: unescaped = c
                case UInt8(ascii: "b"): unescaped = 0x08
                case UInt8(ascii: "f"): unescaped = 0x0C
                case UInt8(ascii: "n"): unescaped = 0x0A
                case UInt8(ascii: "r"): unescaped = 0x0D
                case UInt8(ascii: "t"): unescaped = 0x09
                case UInt8(ascii: "u"):
                    escapeValue = 0
                    escapeDigits = 0
                    state = .unicodeEscape
                    i += 1
                    continue
                default:
                    try fail(.invalidEscape, at: i)
                }
                bytes.append(unescaped)
                state = .string
                i += 1

            case .unicodeEscape:
                guard let digit = Self.hexValue(c) else { try fail(.unexpectedByte(c), at: i) }
                escapeValue = escapeValue << 4 | digit
                escapeDigits += 1
                if escapeDigits == 4 { try endUnicodeEscape(at: i) }
                i += 1

            case .lowSurrogateBackslash:
                guard c == 0x5C else { try fail(.loneSurrogate, at: i) }
                state = .lowSurrogateU
                i += 1

            case .lowSurrogateU:
                guard c == UInt8(ascii: "u") else { try fail(.loneSurrogate, at: i) }
                escapeValue = 0
                escapeDigits = 0
                state = .unicodeEscape
                i += 1

            case .numberMinus, .numberDot, .numberExponentSign:
                guard c.isDigit else { try fail(.unexpectedByte(c), at: i) }
                bytes.append(c)
                state = switch state {
                case .numberMinus: c == UInt8(ascii: "0") ? .numberZero : .numberInteger
                case .numberDot: .numberFraction
                default: .numberExponent
                }
                i += 1

            case .numberExponentMark:
                if c.isDigit {
                    state = .numberExponent
                } else if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                    state = .numberExponentSign
                } else {
                    try fail(.unexpectedByte(c), at: i)
                }
                bytes.append(c)
                i += 1

            case .numberZero, .numberInteger, .numberFraction, .numberExponent:
                let runStart = i
                if state != .numberZero {
                    while i < n, p[i].isDigit { i += 1 }
                    if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(start: p + runStart, count: i - runStart)) }
                    if i == n { break }
                }
                let b = p[i]
                if b == UInt8(ascii: "."), state == .numberZero || state == .numberInteger {
                    bytes.append(b)
                    state = .numberDot
                    i += 1
                } else if b | 0x20 == UInt8(ascii: "e"), state != .numberExponent {
                    bytes.append(b)
                    state = .numberExponentMark
                    i += 1
                } else {
                    // The number ends here; the byte is read again in the next state.
                    endNumber()
                }

            case .literal:
                let text = Self.literalText(literal)
                guard c == text.utf8Start[literalIndex] else { try fail(.unexpectedByte(c), at: i) }
                literalIndex += 1
                if literalIndex == text.utf8CodeUnitCount {
                    complete(addNode(literal, start: bytes.count))
                }
                i += 1

            case .failed:
                if let failure { throw failure }
                i += 1
            }
        }
    }

    /// Ends the input: completes a trailing number and checks that one whole value was read.
    mutating func finish() throws(JSONParseError) {
        if let failure { throw failure }
        switch state {
        case .numberZero, .numberInteger, .numberFraction, .numberExponent: endNumber()
        default: break
        }
        guard state == .done else {
            try fail(.unexpectedEndOfInput, at: 0)
        }
    }

    // MARK: Values

    private mutating func beginValue(_ c: UInt8, at i: Int) throws(JSONParseError) {
        switch c {
        case 0x22:
            _ = addNode(.string, start: bytes.count)
            stringIsKey = false
            state = .string
        case 0x7B, 0x5B:
            guard stack.count < maximumDepth else { try fail(.depthLimitExceeded(maximumDepth), at: i) }
            stack.append(addNode(c == 0x7B ? .object : .array, start: bytes.count))
            state = c == 0x7B ? .keyOrClose : .valueOrClose
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            literal = c == UInt8(ascii: "t") ? .true : c == UInt8(ascii: "f") ? .false : .null
            literalIndex = 1
            state = .literal
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            numberStart = bytes.count
            bytes.append(c)
            state = c == UInt8(ascii: "-") ? .numberMinus : c == UInt8(ascii: "0") ? .numberZero : .numberInteger
        default:
            try fail(.unexpectedByte(c), at: i)
        }
    }

    private mutating func addNode(_ kind: ParsedNode.Kind, start: Int) -> Int {
        let index = nodes.count
        var node = ParsedNode(kind: kind, start: start)
        if let parentIndex = stack.last {
            var parent = nodes[parentIndex]
            if parent.kind == .object {
                node.keyStart = keyStart
                node.keyEnd = keyEnd
            }
            if parent.lastChild >= 0 {
                nodes[parent.lastChild].nextSibling = index
            } else {
                parent.firstChild = index
            }
            parent.lastChild = index
            parent.childCount += 1
            nodes[parentIndex] = parent
        }
        nodes.append(node)
        return index
    }

    private mutating func complete(_ index: Int) {
        nodes[index].completedAt = clock
        clock += 1
        state = stack.isEmpty ? .done : .afterValue
    }

    private mutating func closeContainer() {
        complete(stack.removeLast())
    }

    private mutating func endString() {
        if stringIsKey {
            keyStart = stringStart
            keyEnd = bytes.count
            state = .colon
        } else {
            let index = nodes.count - 1
            nodes[index].end = bytes.count
            complete(index)
        }
    }

    private mutating func endNumber() {
        let index = addNode(.number, start: numberStart)
        nodes[index].end = bytes.count
        complete(index)
    }

    private mutating func endUnicodeEscape(at i: Int) throws(JSONParseError) {
        let unit = escapeValue
        if highSurrogate != 0 {
            guard (0xDC00...0xDFFF).contains(unit) else { try fail(.loneSurrogate, at: i) }
            appendScalar(0x10000 + (highSurrogate - 0xD800) << 10 + (unit - 0xDC00))
            highSurrogate = 0
            state = .string
        } else if (0xD800...0xDBFF).contains(unit) {
            highSurrogate = unit
            state = .lowSurrogateBackslash
        } else if (0xDC00...0xDFFF).contains(unit) {
            try fail(.loneSurrogate, at: i, expected: "a high surrogate (\\uD800 to \\uDBFF) before a low one")
        } else {
            appendScalar(unit)
            state = .string
        }
    }

    private mutating func appendScalar(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            bytes.append(UInt8(scalar))
        case ..<0x800:
            bytes.append(UInt8(0xC0 | scalar >> 6))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            bytes.append(UInt8(0xE0 | scalar >> 12))
            bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | scalar >> 18))
            bytes.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private mutating func skipWhitespace(_ c: UInt8, at i: Int) {
        if c == 0x0A {
            line += 1
            lineStart = consumed + i + 1
        }
    }

    // MARK: Errors

    /// Records and throws an error at byte `i` of the current chunk (or at the end of input).
    private mutating func fail(
        _ reason: JSONParseError.Reason, at i: Int, expected: String? = nil
    ) throws(JSONParseError) -> Never {
        let offset = consumed + i
        let error = JSONParseError(
            reason: reason, expected: expected ?? expectation, offset: offset, line: line,
            column: offset - lineStart + 1)
        failure = error
        state = .failed
        throw error
    }

    /// What the current state accepts, in words.
    private var expectation: String {
        switch state {
        case .value: "a value"
        case .valueOrClose: "a value or ']'"
        case .keyOrClose: "'\"' starting a member name, or '}'"
        case .key: "'\"' starting a member name"
        case .colon: "':'"
        case .afterValue:
            nodes[stack[stack.count - 1]].kind == .object ? "',' or '}'" : "',' or ']'"
        case .done: "end of input"
        case .string: "more characters or '\"' closing the string"
        case .stringUTF8: "a UTF-8 continuation byte"
        case .escape: "an escape character: one of \" \\ / b f n r t u"
        case .unicodeEscape: highSurrogate != 0 ? "a low surrogate (\\uDC00 to \\uDFFF)" : "a hexadecimal digit"
        case .lowSurrogateBackslash, .lowSurrogateU: "'\\u' and a low surrogate (DC00 to DFFF)"
        case .numberMinus, .numberDot, .numberExponentSign: "a digit"
        case .numberExponentMark: "a digit, '+' or '-'"
        case .numberZero, .numberInteger, .numberFraction, .numberExponent: "more of the number or what follows it"
        case .literal: "'\(Self.literalText(literal))'"
        case .failed: "nothing more after an error"
        }
    }

    // MARK: Byte classes

    @inline(__always)
    private static func isWhitespace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// For a UTF-8 lead byte: how many continuation bytes follow, and the range allowed for the
    /// first of them (which rules out overlong forms, surrogates and code points past U+10FFFF).
    /// `needed` is 0 for a byte that cannot start a sequence.
    @inline(__always)
    private static func utf8Lead(_ b: UInt8) -> (needed: Int, low: UInt8, high: UInt8) {
        switch b {
        case 0xC2...0xDF: (1, 0x80, 0xBF)
        case 0xE0: (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80, 0xBF)
        case 0xED: (2, 0x80, 0x9F)
        case 0xF0: (3, 0x90, 0xBF)
        case 0xF1...0xF3: (3, 0x80, 0xBF)
        case 0xF4: (3, 0x80, 0x8F)
        default: (0, 0, 0)
        }
    }

    private static func literalText(_ kind: ParsedNode.Kind) -> StaticString {
        switch kind {
        case .true: "true"
        case .false: "false"
        default: "null"
        }
    }
}
