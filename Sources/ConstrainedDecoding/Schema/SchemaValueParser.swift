/// A small strict JSON parser for schema documents (RFC 8259; nesting limited), keeping the
/// order of object members and numbers as written.
struct SchemaValueParser {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    static let maximumDepth = 256

    /// Parses a whole document.
    static func parse(_ text: String) throws(SchemaError) -> SchemaValue {
        var parser = SchemaValueParser(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("end of input") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ expected: String) -> SchemaError {
        .invalidJSON("expected \(expected) at byte \(position)")
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ literal: String) throws(SchemaError) {
        for byte in literal.utf8 {
            guard current == byte else { throw error("'\(literal)'") }
            position += 1
        }
    }

    private mutating func value() throws(SchemaError) -> SchemaValue {
        switch current ?? 0 {
        case UInt8(ascii: "{"):
            return try nested { (parser: inout SchemaValueParser) throws(SchemaError) in try parser.object() }
        case UInt8(ascii: "["):
            return try nested { (parser: inout SchemaValueParser) throws(SchemaError) in try parser.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("a value")
        }
    }

    private mutating func nested(_ body: (inout SchemaValueParser) throws(SchemaError) -> SchemaValue) throws(SchemaError) -> SchemaValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw .invalidJSON("nesting deeper than \(Self.maximumDepth) levels") }
        return try body(&self)
    }

    private mutating func object() throws(SchemaError) -> SchemaValue {
        position += 1
        var members: [(key: String, value: SchemaValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("a member name") }
            let key = try string()
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
            } else {
                try expect("}")
                return .object(members)
            }
        }
    }

    private mutating func array() throws(SchemaError) -> SchemaValue {
        position += 1
        var elements: [SchemaValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
            } else {
                try expect("]")
                return .array(elements)
            }
        }
    }

    private mutating func number() throws(SchemaError) -> String {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, first &- 0x30 < 10 else { throw error("a digit") }
        position += 1
        if first != UInt8(ascii: "0") { while let byte = current, byte &- 0x30 < 10 { position += 1 } }
        if current == UInt8(ascii: ".") {
            position += 1
            guard let byte = current, byte &- 0x30 < 10 else { throw error("a digit") }
            while let byte = current, byte &- 0x30 < 10 { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let byte = current, byte &- 0x30 < 10 else { throw error("a digit") }
            while let byte = current, byte &- 0x30 < 10 { position += 1 }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func string() throws(SchemaError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() {
            if !raw.isEmpty {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
        }
        while true {
            guard let byte = current else { throw error("'\"'") }
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard let escape = current else { throw error("an escape") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{c}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800...0xDBFF).contains(unit) {
                        try expect("\\u")
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a low surrogate") }
                        unit = 0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(unit) else { throw error("a valid \\u escape") }
                    scalars.append(scalar)
                default: throw error("an escape character")
                }
            case 0..<0x20:
                throw error("no control character in a string")
            default:
                raw.append(byte)
            }
        }
    }

    private mutating func hex4() throws(SchemaError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else { throw error("a hexadecimal digit") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
