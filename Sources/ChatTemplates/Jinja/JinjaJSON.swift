import PartialJSON

/// JSON for templates: reading JSON text into values that keep the order of object keys (so that
/// `tojson` writes tools back as they were given), and writing values as Python's `json.dumps`
/// does, which Hugging Face's `tojson` filter calls.
enum JinjaJSON {
    /// How deep JSON text may nest.
    static let maximumNesting = 256

    /// The value of JSON `text`, read by PartialJSON's parser; objects become dictionaries in
    /// their order (a repeated key keeps its first place and its last value, as Python's
    /// `json.loads` does), integers `integer` where they fit, other numbers `double`.
    static func parse(_ text: String) throws(JinjaFailure) -> JinjaValue {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: text, maximumDepth: maximumNesting)
        } catch {
            if case .depthLimitExceeded = error.reason { throw .limitExceeded("JSON nests deeper than \(maximumNesting) levels") }
            throw .evaluation("the text is not JSON: \(error)")
        }
        return value(of: json)
    }

    /// The template value of `json`.
    static func value(of json: JSONValue) -> JinjaValue {
        switch json {
        case .null: return .none
        case .bool(let flag): return .boolean(flag)
        case .number(let number):
            if number.isIntegerLiteral, let integer = try? number.intValue() { return .integer(integer) }
            return .double((try? number.doubleValue()) ?? .nan)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(value(of:)))
        case .object(let members):
            var dictionary = JinjaDictionary()
            for member in members { dictionary[member.key] = value(of: member.value) }
            return .dictionary(dictionary)
        }
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

}

extension JinjaValue {
    /// The template value of a JSON value: objects become dictionaries in their order, integers
    /// `integer` where they fit, other numbers `double`, `null` `none`; as `fromjson` reads JSON.
    public init(jsonValue json: JSONValue) {
        self = JinjaJSON.value(of: json)
    }
}
