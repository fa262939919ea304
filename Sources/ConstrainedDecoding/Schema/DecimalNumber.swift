/// An exact decimal number parsed from JSON text: sign, significant digits and a power of ten.
/// Comparisons and equality are exact, whatever the size.
struct DecimalNumber: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Whether the number is below zero (never for zero).
    let isNegative: Bool
    /// The significant digits, without leading or trailing zeros; empty for zero.
    let digits: [UInt8]
    /// The value is `digits × 10^exponent`.
    let exponent: Int

    /// Parses JSON number text; `nil` when it is not one.
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        var inFraction = false
        while let byte = bytes.first {
            if byte &- 0x30 < 10 {
                digits.append(byte - 0x30)
                if inFraction { exponent -= 1 }
                sawDigit = true
            } else if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard sawDigit else { return nil }
        if let mark = bytes.first, mark | 0x20 == UInt8(ascii: "e") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty else { return nil }
            var value = 0
            for byte in bytes {
                guard byte &- 0x30 < 10 else { return nil }
                value = min(value * 10 + Int(byte - 0x30), 1_000_000_000)
            }
            exponent += exponentNegative ? -value : value
            bytes = []
        }
        guard bytes.isEmpty else { return nil }
        self.init(negative: negative, digits: digits, exponent: exponent)
    }

    init(_ value: Int) {
        self.init(String(value))!
    }

    private init(negative: Bool, digits: [UInt8], exponent: Int) {
        var digits = digits[...]
        var exponent = exponent
        while digits.first == 0 { digits = digits.dropFirst() }
        while digits.last == 0 {
            digits = digits.dropLast()
            exponent += 1
        }
        self.digits = Array(digits)
        self.exponent = digits.isEmpty ? 0 : exponent
        isNegative = negative && !digits.isEmpty
    }

    var isZero: Bool { digits.isEmpty }
    var isInteger: Bool { exponent >= 0 }

    /// The power of ten of the leading digit (the magnitude order); meaningless for zero.
    private var magnitude: Int { exponent + digits.count - 1 }

    static func < (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        let magnitudeLess = lhs.absoluteLess(than: rhs)
        if lhs.isNegative { return rhs.absoluteLess(than: lhs) }
        return magnitudeLess
    }

    private func absoluteLess(than other: DecimalNumber) -> Bool {
        if isZero || other.isZero { return isZero && !other.isZero }
        if magnitude != other.magnitude { return magnitude < other.magnitude }
        for index in 0..<max(digits.count, other.digits.count) {
            let a = index < digits.count ? digits[index] : 0
            let b = index < other.digits.count ? other.digits[index] : 0
            if a != b { return a < b }
        }
        return false
    }

    /// The plain decimal spelling, without exponent: `-12.5`, `0.001`, `1000`.
    var plainText: String {
        guard !isZero else { return "0" }
        var text = isNegative ? "-" : ""
        let digitText = String(decoding: digits.map { $0 + 0x30 }, as: UTF8.self)
        if exponent >= 0 {
            text += digitText + String(repeating: "0", count: exponent)
        } else if -exponent >= digits.count {
            text += "0." + String(repeating: "0", count: -exponent - digits.count) + digitText
        } else {
            let split = digits.count + exponent
            text += digitText.prefix(split) + "." + digitText.dropFirst(split)
        }
        return text
    }

    var description: String { plainText }

    /// The integer part's digits and the fraction's digits of the absolute value, in plain form.
    var plainParts: (integer: [UInt8], fraction: [UInt8]) {
        guard !isZero else { return ([0], []) }
        if exponent >= 0 { return (digits + Array(repeating: 0, count: exponent), []) }
        if -exponent >= digits.count { return ([0], Array(repeating: 0, count: -exponent - digits.count) + digits) }
        let split = digits.count + exponent
        return (Array(digits[..<split]), Array(digits[split...]))
    }

    /// The negated number.
    var negated: DecimalNumber {
        DecimalNumber(negative: !isNegative, digits: digits, exponent: exponent)
    }
}
