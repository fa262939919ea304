/// JSON for templates: reading JSON text into values that keep the order of object keys (so that
/// `tojson` writes tools back as they were given), and writing values as Python's `json.dumps`
/// does, which Hugging Face's `tojson` filter calls.
enum JinjaJSON {
    /// How deep JSON text may nest.
    static let maximumNesting = 256

    /// The value of JSON `text`; objects become dictionaries in their order.
    static func parse(_ text: String) throws(JinjaFailure) -> JinjaValue {
        var reader = Reader(bytes: Array(text.utf8))
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.failure("extra data") }
        return value
    }

    /// How `json.dumps` is asked to write.
    struct Style {
        var ensuresASCII = false
        /// The indentation of one level, or `nil` for everything on one line.
        var indent: String?
        var itemSeparator = ", "
        var keySeparator = ": "
        var sortsKeys = false
    }

    /// `value` as `json.dumps(value, ...)` writes it.
    static func dumps(_ value: JinjaValue, style: Style) throws(JinjaFailure) -> String {
        var output = ""
        try write(value, style: style, level: 0, into: &output)
        return output
    }

    private static func write(_ value: JinjaValue, style: Style, level: Int, into output: inout String) throws(JinjaFailure) {
        guard level < maximumNesting else { throw .limitExceeded("a value nests deeper than \(maximumNesting) levels") }
        switch value {
        case .none: output += "null"
        case .boolean(let flag): output += flag ? "true" : "false"
        case .integer(let integer): output += String(integer)
        case .double(let double): output += floatText(double)
        case .string(let string): writeString(string, ensuresASCII: style.ensuresASCII, into: &output)
        case .array(let items):
            guard !items.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, item) in items.enumerated() {
                output += index == 0 ? opening(style, level: level + 1) : separator(style, level: level + 1)
                try write(item, style: style, level: level + 1, into: &output)
            }
            output += closing(style, level: level) + "]"
        case .dictionary(let dictionary):
            guard dictionary.count > 0 else {
                output += "{}"
                return
            }
            var pairs: [(String, JinjaValue)] = []
            for (key, item) in dictionary.pairs {
                let name: String
                switch key {
                case .string(let string): name = string
                case .integer(let integer): name = String(integer)
                case .double(let double): name = floatText(double)
                case .boolean(let flag): name = flag ? "true" : "false"
                case .none: name = "null"
                default: throw .evaluation("keys must be str, int, float, bool or None, not \(key.typeName)")
                }
                pairs.append((name, item))
            }
            if style.sortsKeys { pairs.sort { $0.0.isScalarLess(than: $1.0) } }
            output += "{"
            for (index, (name, item)) in pairs.enumerated() {
                output += index == 0 ? opening(style, level: level + 1) : separator(style, level: level + 1)
                writeString(name, ensuresASCII: style.ensuresASCII, into: &output)
                output += style.keySeparator
                try write(item, style: style, level: level + 1, into: &output)
            }
            output += closing(style, level: level) + "}"
        case .undefined, .namespace, .callable:
            throw .evaluation("Object of type \(value.typeName) is not JSON serializable")
        }
    }

    private static func opening(_ style: Style, level: Int) -> String {
        style.indent.map { "\n" + String(repeating: $0, count: level) } ?? ""
    }

    private static func separator(_ style: Style, level: Int) -> String {
        style.itemSeparator + opening(style, level: level)
    }

    private static func closing(_ style: Style, level: Int) -> String {
        style.indent.map { "\n" + String(repeating: $0, count: level) } ?? ""
    }

    /// A float as `json.dumps` writes it: Python's `repr`, with `NaN` and `Infinity`.
    private static func floatText(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return value.pythonRepr
    }

    private static func writeString(_ string: String, ensuresASCII: Bool, into output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    output += unicodeEscape(scalar.value)
                } else if ensuresASCII, scalar.value > 0x7E {
                    if scalar.value > 0xFFFF {
                        let offset = scalar.value - 0x10000
                        output += unicodeEscape(0xD800 + (offset >> 10)) + unicodeEscape(0xDC00 + (offset & 0x3FF))
                    } else {
                        output += unicodeEscape(scalar.value)
                    }
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Reads JSON from UTF-8 bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        func failure(_ reason: String) -> JinjaFailure {
            .evaluation("invalid JSON at byte \(index): \(reason)")
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func readValue(depth: Int) throws(JinjaFailure) -> JinjaValue {
            guard depth < JinjaJSON.maximumNesting else {
                throw .limitExceeded("JSON nests deeper than \(JinjaJSON.maximumNesting) levels")
            }
            guard index < bytes.count else { throw failure("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var dictionary = JinjaDictionary()
                guard !skip(UInt8(ascii: "}")) else { return .dictionary(dictionary) }
                repeat {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                    let key = try readString()
                    guard skip(UInt8(ascii: ":")) else { throw failure("expected ':'") }
                    skipWhitespace()
                    dictionary[key] = try readValue(depth: depth + 1)
                } while try continues(closing: UInt8(ascii: "}"))
                return .dictionary(dictionary)
            case UInt8(ascii: "["):
                index += 1
                var items: [JinjaValue] = []
                guard !skip(UInt8(ascii: "]")) else { return .array(items) }
                repeat {
                    skipWhitespace()
                    items.append(try readValue(depth: depth + 1))
                } while try continues(closing: UInt8(ascii: "]"))
                return .array(items)
            case UInt8(ascii: "\""):
                return .string(try readString())
            case UInt8(ascii: "t"):
                try expect("true")
                return .boolean(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .boolean(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .none
            default:
                return try readNumber()
            }
        }

        /// Skips whitespace, then `byte` when it is next.
        mutating func skip(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// After an item of an object or an array: `true` past a `,`, `false` past `closing`.
        mutating func continues(closing: UInt8) throws(JinjaFailure) -> Bool {
            if skip(UInt8(ascii: ",")) { return true }
            if skip(closing) { return false }
            throw failure(index < bytes.count ? "expected ',' or '\(Character(Unicode.Scalar(closing)))'" : "unexpected end")
        }

        mutating func expect(_ word: String) throws(JinjaFailure) {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw failure("expected '\(word)'")
            }
            index += expected.count
        }

        mutating func readNumber() throws(JinjaFailure) -> JinjaValue {
            let start = index
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            while index < bytes.count {
                let byte = bytes[index]
                if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    index += 1
                } else if [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(byte) {
                    isInteger = false
                    index += 1
                } else {
                    break
                }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if isInteger, let integer = Int(text) { return .integer(integer) }
            guard !text.isEmpty, text != "-", let double = Double(text) else { throw failure("expected a value") }
            return .double(double)
        }

        mutating func readString() throws(JinjaFailure) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var pending: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                pending.removeAll()
            }
            while true {
                guard index < bytes.count else { throw failure("unterminated string") }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    flush()
                    return String(scalars)
                }
                guard byte == UInt8(ascii: "\\") else {
                    guard byte >= 0x20 else { throw failure("control character in a string") }
                    pending.append(byte)
                    continue
                }
                flush()
                guard index < bytes.count else { throw failure("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try readHex()
                    if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let save = index
                        index += 2
                        let low = try readHex()
                        if (0xDC00..<0xE000).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = save
                        }
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default:
                    throw failure("invalid escape")
                }
            }
        }

        mutating func readHex() throws(JinjaFailure) -> UInt32 {
            guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw failure("invalid \\u escape")
            }
            index += 4
            return code
        }
    }
}
