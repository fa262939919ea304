/// A JSON number, kept exactly as written.
///
/// JSON puts no limit on the size or precision of numbers, so the parser never rounds: the text
/// is kept, and converting it to `Int` or `Double` says when the value does not fit.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The number as written in the document, e.g. `-12.50e+3`.
    public let text: String

    /// Creates a number from its JSON text, or `nil` when the text is not a JSON number.
    public init?(_ text: String) {
        guard NumberSyntax(text.utf8) != nil else { return nil }
        self.text = text
    }

    /// Creates a number from text the parser has already validated.
    init(validatedText text: String) {
        self.text = text
    }

    /// Creates the number for an integer.
    public init(_ value: Int) {
        text = String(value)
    }

    /// Creates the number for an integer literal.
    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// Creates the number for a finite `Double`, written in the shortest form that reads back
    /// as the same `Double`; `nil` for infinities and NaN, which JSON cannot express.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            text = String(Int(value))
        } else {
            var written = "\(value)"
            if written.hasSuffix(".0") { written.removeLast(2) }
            text = written
        }
    }

    public var description: String { text }

    /// Whether the text has neither a fraction nor an exponent (`12`, `-3`, not `1.0` or `1e2`).
    public var isIntegerLiteral: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The exact integer value.
    ///
    /// `1.0`, `1e2` and `-0` are integers (1, 100, 0); `1.5` is not.
    /// - Throws: ``ConversionError/notAnInteger(_:)`` for a value with a fractional part,
    ///   ``ConversionError/outOfRange(_:type:)`` when the value does not fit in `Int`.
    public func intValue() throws(ConversionError) -> Int {
        guard let syntax = NumberSyntax(text.utf8) else { throw .notAnInteger(text) }
        return try syntax.exactInteger(text)
    }

    /// The nearest `Double`.
    ///
    /// Values too small for a `Double` round to zero, as IEEE 754 and `JSONSerialization` do.
    /// - Throws: ``ConversionError/outOfRange(_:type:)`` when the magnitude is too large for a
    ///   `Double` (it would be infinite).
    public func doubleValue() throws(ConversionError) -> Double {
        guard let value = Double(text), value.isFinite else { throw .outOfRange(text, type: "Double") }
        return value
    }

    /// Why a number cannot become a given Swift type.
    public enum ConversionError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The number has a fractional part.
        case notAnInteger(String)
        /// The number is too large (or too small) for the type.
        case outOfRange(String, type: String)

        public var description: String {
            switch self {
            case .notAnInteger(let text): "\(text) is not an integer"
            case .outOfRange(let text, let type): "\(text) is out of the range of \(type)"
            }
        }
    }
}

/// The parts of a JSON number's text: sign, digits and decimal exponent.
private struct NumberSyntax {
    var isNegative = false
    /// The significant digits (integer then fraction), as ASCII.
    var digits: [UInt8] = []
    /// The power of ten that the digits are multiplied by, saturated far beyond any `Int`.
    var scale = 0

    init?(_ utf8: String.UTF8View) {
        var iterator = utf8.makeIterator()
        var byte = iterator.next()
        if byte == UInt8(ascii: "-") {
            isNegative = true
            byte = iterator.next()
        }
        guard let first = byte, first.isDigit else { return nil }
        if first == UInt8(ascii: "0") {
            byte = iterator.next()
        } else {
            while let digit = byte, digit.isDigit {
                digits.append(digit)
                byte = iterator.next()
            }
        }
        if byte == UInt8(ascii: ".") {
            byte = iterator.next()
            guard let digit = byte, digit.isDigit else { return nil }
            while let digit = byte, digit.isDigit {
                digits.append(digit)
                scale -= 1
                byte = iterator.next()
            }
        }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            byte = iterator.next()
            var exponentIsNegative = false
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                exponentIsNegative = byte == UInt8(ascii: "-")
                byte = iterator.next()
            }
            guard let digit = byte, digit.isDigit else { return nil }
            var exponent = 0
            while let digit = byte, digit.isDigit {
                // Saturate: any exponent past a billion is out of range for every type we convert to.
                exponent = min(exponent * 10 + Int(digit - UInt8(ascii: "0")), 1_000_000_000)
                byte = iterator.next()
            }
            scale += exponentIsNegative ? -exponent : exponent
        }
        guard byte == nil else { return nil }
    }

    func exactInteger(_ text: String) throws(JSONNumber.ConversionError) -> Int {
        var significant = digits[...]
        var scale = scale
        while let last = significant.last, last == UInt8(ascii: "0"), scale < 0 {
            significant.removeLast()
            scale += 1
        }
        while let first = significant.first, first == UInt8(ascii: "0") {
            significant.removeFirst()
        }
        if significant.isEmpty { return 0 }
        guard scale >= 0 else { throw .notAnInteger(text) }
        guard significant.count + scale <= 19 else { throw .outOfRange(text, type: "Int") }
        // Accumulate as a negative number so that Int.min is representable.
        var value = 0
        for digit in significant {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw .outOfRange(text, type: "Int") }
            value = next
        }
        for _ in 0..<scale {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { throw .outOfRange(text, type: "Int") }
            value = shifted
        }
        if isNegative { return value }
        guard value != Int.min else { throw .outOfRange(text, type: "Int") }
        return -value
    }
}

extension UInt8 {
    var isDigit: Bool { self &- UInt8(ascii: "0") < 10 }
}
