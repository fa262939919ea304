/// Python's operations on strings, which count and compare Unicode scalars (code points) where
/// Swift's `String` compares grapheme clusters: what templates' string methods and filters do.
extension String {
    /// The string's scalars.
    var scalars: [Unicode.Scalar] { Array(unicodeScalars) }

    init(scalars: some Sequence<Unicode.Scalar>) {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        self = String(view)
    }

    /// Python's `==`: the same scalars.
    func isScalarEqual(to other: String) -> Bool {
        unicodeScalars.elementsEqual(other.unicodeScalars)
    }

    /// Python's `<` on strings: by scalar values.
    func isScalarLess(than other: String) -> Bool {
        unicodeScalars.lexicographicallyPrecedes(other.unicodeScalars) { $0.value < $1.value }
    }

    /// Where `needle` first occurs at or after scalar `start`, in scalars.
    static func firstOccurrence(of needle: [Unicode.Scalar], in haystack: [Unicode.Scalar], from start: Int = 0) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        if needle.isEmpty { return start <= haystack.count ? start : nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Python's `needle in self`.
    func containsScalars(_ needle: String) -> Bool {
        Self.firstOccurrence(of: needle.scalars, in: scalars) != nil
    }

    /// Python's `startswith`.
    func hasScalarPrefix(_ prefix: String) -> Bool {
        unicodeScalars.starts(with: prefix.unicodeScalars)
    }

    /// Python's `endswith`.
    func hasScalarSuffix(_ suffix: String) -> Bool {
        unicodeScalars.reversed().starts(with: suffix.unicodeScalars.reversed())
    }

    /// Python's `strip`, `lstrip` and `rstrip`: whitespace, or the scalars of `characters`.
    func pythonStrip(_ characters: String?, leading: Bool = true, trailing: Bool = true) -> String {
        let set = characters.map { Set($0.unicodeScalars) }
        func strips(_ scalar: Unicode.Scalar) -> Bool { set?.contains(scalar) ?? scalar.isPythonWhitespace }
        let all = scalars
        var start = 0
        var end = all.count
        if leading { while start < end, strips(all[start]) { start += 1 } }
        if trailing { while end > start, strips(all[end - 1]) { end -= 1 } }
        return String(scalars: all[start..<end])
    }

    /// Python's `split`: on runs of whitespace (dropping empty parts) without a separator, else
    /// on each occurrence of it; at most `limit` splits when not negative.
    func pythonSplit(_ separator: String?, limit: Int = -1) -> [String] {
        let all = scalars
        var parts: [String] = []
        guard let separator else {
            var index = 0
            while index < all.count {
                while index < all.count, all[index].isPythonWhitespace { index += 1 }
                guard index < all.count else { break }
                if limit >= 0, parts.count == limit {
                    var end = all.count
                    while end > index, all[end - 1].isPythonWhitespace { end -= 1 }
                    parts.append(String(scalars: all[index..<end]))
                    break
                }
                let start = index
                while index < all.count, !all[index].isPythonWhitespace { index += 1 }
                parts.append(String(scalars: all[start..<index]))
            }
            return parts
        }
        let needle = separator.scalars
        var start = 0
        while limit < 0 || parts.count < limit, let found = Self.firstOccurrence(of: needle, in: all, from: start) {
            parts.append(String(scalars: all[start..<found]))
            start = found + needle.count
        }
        parts.append(String(scalars: all[start...]))
        return parts
    }

    /// Python's `rsplit`: like `split`, splitting from the end.
    func pythonReverseSplit(_ separator: String?, limit: Int = -1) -> [String] {
        guard limit >= 0 else { return pythonSplit(separator, limit: limit) }
        let reversedSeparator = separator.map { String(scalars: $0.unicodeScalars.reversed()) }
        return String(scalars: unicodeScalars.reversed()).pythonSplit(reversedSeparator, limit: limit)
            .reversed().map { String(scalars: $0.unicodeScalars.reversed()) }
    }

    /// Python's `replace`: every occurrence (at most `count` when not negative); an empty `old`
    /// matches between every two scalars.
    func pythonReplace(_ old: String, with new: String, count: Int = -1) -> String {
        let all = scalars
        let needle = old.scalars
        var result = String.UnicodeScalarView()
        var replaced = 0
        if needle.isEmpty {
            for scalar in all {
                if count < 0 || replaced < count {
                    result.append(contentsOf: new.unicodeScalars)
                    replaced += 1
                }
                result.append(scalar)
            }
            if count < 0 || replaced < count { result.append(contentsOf: new.unicodeScalars) }
            return String(result)
        }
        var start = 0
        while count < 0 || replaced < count, let found = Self.firstOccurrence(of: needle, in: all, from: start) {
            result.append(contentsOf: all[start..<found])
            result.append(contentsOf: new.unicodeScalars)
            start = found + needle.count
            replaced += 1
        }
        result.append(contentsOf: all[start...])
        return String(result)
    }

    /// Python's `count` of non-overlapping occurrences.
    func pythonCount(_ needle: String) -> Int {
        let all = scalars
        let pattern = needle.scalars
        if pattern.isEmpty { return all.count + 1 }
        var count = 0
        var start = 0
        while let found = Self.firstOccurrence(of: pattern, in: all, from: start) {
            count += 1
            start = found + pattern.count
        }
        return count
    }

    /// Python's `splitlines`: lines without their breaks (`\n`, `\r\n`, `\r`, and the other
    /// breaks Python knows).
    func pythonLines() -> [String] {
        let all = scalars
        var lines: [String] = []
        var start = 0
        var index = 0
        while index < all.count {
            switch all[index].value {
            case 0x0A, 0x0B, 0x0C, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029:
                lines.append(String(scalars: all[start..<index]))
                index += 1
                start = index
            case 0x0D:
                lines.append(String(scalars: all[start..<index]))
                index += all.count > index + 1 && all[index + 1] == "\n" ? 2 : 1
                start = index
            default:
                index += 1
            }
        }
        if start < all.count { lines.append(String(scalars: all[start...])) }
        return lines
    }

    /// Python's `str.title`: each run of cased letters starts in title case, the rest lower.
    func pythonTitle() -> String {
        var result = ""
        var previousIsCased = false
        for scalar in unicodeScalars {
            let properties = scalar.properties
            if properties.isUppercase || properties.generalCategory == .titlecaseLetter {
                result += previousIsCased ? properties.lowercaseMapping : String(scalar)
                previousIsCased = true
            } else if properties.isLowercase {
                result += previousIsCased ? String(scalar) : properties.titlecaseMapping
                previousIsCased = true
            } else {
                result.unicodeScalars.append(scalar)
                previousIsCased = false
            }
        }
        return result
    }

    /// Python's `capitalize`: the first scalar in title case, the rest lower case.
    func pythonCapitalize() -> String {
        guard let first = unicodeScalars.first else { return "" }
        return first.properties.titlecaseMapping + String(scalars: unicodeScalars.dropFirst()).lowercased()
    }

    /// Python's `repr` of a string: quoted, with escapes for backslashes, the quote and
    /// unprintable scalars.
    var pythonRepr: String {
        let quote: Unicode.Scalar = contains("'") && !contains("\"") ? "\"" : "'"
        var result = String.UnicodeScalarView([quote])
        for scalar in unicodeScalars {
            switch scalar {
            case quote, "\\":
                result.append("\\")
                result.append(scalar)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            default:
                if scalar.isPythonPrintable {
                    result.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16)
                    let escaped = scalar.value < 0x100 ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                        : scalar.value < 0x10000 ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                        : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                    result.append(contentsOf: escaped.unicodeScalars)
                }
            }
        }
        result.append(quote)
        return String(result)
    }
}

extension Unicode.Scalar {
    /// Whether Python's `str.isprintable` counts the scalar as printable.
    var isPythonPrintable: Bool {
        if self == " " { return true }
        switch properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator: return false
        default: return true
        }
    }
}

extension Double {
    /// Python's `repr` of a float: the shortest digits that read back as the same number, in
    /// positional notation from 1e-4 up to 1e16 and in exponent notation beyond.
    var pythonRepr: String {
        if isNaN { return "nan" }
        if isInfinite { return self < 0 ? "-inf" : "inf" }
        let sign = self.sign == .minus ? "-" : ""
        // Swift's description also gives the shortest round-trip digits; only the layout differs.
        let text = "\(magnitude)"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = parts.first ?? ""
        var digits = Array(integerPart + (parts.count > 1 ? parts[1] : ""))
        var point = integerPart.count + exponent
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        if digits == ["0"] { return sign + "0.0" }
        if point > 16 || point <= -4 {
            let power = point - 1
            let fraction = digits.count > 1 ? "." + String(digits.dropFirst()) : ""
            let powerText = String(abs(power))
            return sign + String(digits[0]) + fraction + "e" + (power < 0 ? "-" : "+") + (powerText.count < 2 ? "0" : "") + powerText
        }
        if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + String(digits) }
        if point >= digits.count { return sign + String(digits) + String(repeating: "0", count: point - digits.count) + ".0" }
        return sign + String(digits[..<point]) + "." + String(digits[point...])
    }
}
