import Foundation
import PartialJSON
import Testing
import TestSupport

/// Seeded random documents and seeded random mutations of them.
@Suite struct RandomDocumentTests {
    /// Writes a random JSON document and returns its text and the value it stands for.
    struct DocumentWriter {
        var generator: SeededGenerator
        var text: [UInt8] = []

        mutating func whitespace() {
            while Int.random(in: 0..<6, using: &generator) == 0 {
                text.append([0x20, 0x0A, 0x0D, 0x09].randomElement(using: &generator)!)
            }
        }

        /// A document: an array of a few values, each possibly nested.
        mutating func document() -> JSONValue {
            whitespace()
            text.append(UInt8(ascii: "["))
            var elements: [JSONValue] = []
            for position in 0..<Int.random(in: 1...6, using: &generator) {
                if position > 0 { text.append(UInt8(ascii: ",")) }
                elements.append(value(depth: 1))
            }
            text.append(UInt8(ascii: "]"))
            whitespace()
            return .array(elements)
        }

        mutating func value(depth: Int) -> JSONValue {
            whitespace()
            defer { whitespace() }
            let choice = Int.random(in: 0..<(depth > 5 ? 5 : 8), using: &generator)
            switch choice {
            case 0:
                text.append(contentsOf: "null".utf8)
                return .null
            case 1:
                let flag = Bool.random(using: &generator)
                text.append(contentsOf: (flag ? "true" : "false").utf8)
                return .bool(flag)
            case 2, 3:
                let number = self.number()
                text.append(contentsOf: number.utf8)
                return .number(JSONNumber(number)!)
            case 4:
                return .string(string())
            case 5:
                text.append(UInt8(ascii: "["))
                var elements: [JSONValue] = []
                for position in 0..<Int.random(in: 0...4, using: &generator) {
                    if position > 0 { text.append(UInt8(ascii: ",")) }
                    elements.append(value(depth: depth + 1))
                }
                if elements.isEmpty { whitespace() }
                text.append(UInt8(ascii: "]"))
                return .array(elements)
            default:
                text.append(UInt8(ascii: "{"))
                var object = JSONObject()
                for position in 0..<Int.random(in: 0...4, using: &generator) {
                    if position > 0 { text.append(UInt8(ascii: ",")) }
                    whitespace()
                    let key = string()
                    whitespace()
                    text.append(UInt8(ascii: ":"))
                    object.append(key: key, value: value(depth: depth + 1))
                }
                if object.isEmpty { whitespace() }
                text.append(UInt8(ascii: "}"))
                return .object(object)
            }
        }

        mutating func number() -> String {
            var result = Bool.random(using: &generator) ? "-" : ""
            result += Int.random(in: 0..<4, using: &generator) == 0 ? "0" : String(UInt64.random(in: 1...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator) | 1)
            if Bool.random(using: &generator) { result += "." + String(Int.random(in: 0...999_999, using: &generator)) }
            if Int.random(in: 0..<3, using: &generator) == 0 {
                result += ["e", "E", "e+", "e-", "E-"].randomElement(using: &generator)! + String(Int.random(in: 0...400, using: &generator))
            }
            return result
        }

        mutating func string() -> String {
            text.append(UInt8(ascii: "\""))
            var result = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0:
                    let (escape, character) = [("\\n", "\n"), ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\t", "\t"), ("\\b", "\u{8}"), ("\\f", "\u{c}"), ("\\r", "\r")].randomElement(using: &generator)!
                    text.append(contentsOf: escape.utf8)
                    result += character
                case 1:
                    let scalar = Unicode.Scalar(UInt32.random(in: 0...0xD7FF, using: &generator))!
                    text.append(contentsOf: String(format: "\\u%04X", scalar.value).utf8)
                    result.unicodeScalars.append(scalar)
                case 2:
                    let scalar = Unicode.Scalar(UInt32.random(in: 0x10000...0x10FFFF, using: &generator))!
                    let units = Array(String(scalar).utf16)
                    text.append(contentsOf: String(format: "\\u%04x\\u%04X", units[0], units[1]).utf8)
                    result.unicodeScalars.append(scalar)
                case 3:
                    let piece = ["é", "中文", "😀", "ß", "\u{10FFFF}", "\u{FFFD}"].randomElement(using: &generator)!
                    text.append(contentsOf: piece.utf8)
                    result += piece
                default:
                    let scalar = Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator))
                    if scalar == "\"" || scalar == "\\" { continue }
                    text.append(UInt8(scalar.value))
                    result.unicodeScalars.append(scalar)
                }
            }
            text.append(UInt8(ascii: "\""))
            return result
        }
    }

    @Test(arguments: 0..<300)
    func randomDocumentsParseAlikeInEveryChunking(seed: UInt64) throws {
        var writer = DocumentWriter(generator: SeededGenerator(seed: seed))
        let expected = writer.document()
        let bytes = writer.text
        #expect(StreamingCheck.parseAtOnce(bytes) == .value(expected))
        var generator = SeededGenerator(seed: seed &+ 1000)
        let (outcome, snapshots) = StreamingCheck.byteByByte(bytes)
        #expect(outcome == .value(expected))
        #expect(StreamingCheck.firstNonMonotoneStep(snapshots) == nil)
        let cuts = StreamingCheck.randomCuts(count: bytes.count, using: &generator)
        #expect(StreamingCheck.parse(bytes, cuts: cuts).outcome == .value(expected))
        #expect(try JSONValue(parsing: expected.jsonString) == expected)
        if let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) {
            #expect(StreamingCheck.matchesFoundation(expected, theirs), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test(arguments: 0..<300)
    func mutatedDocumentsNeverCrashAndFailWithAPosition(seed: UInt64) {
        var writer = DocumentWriter(generator: SeededGenerator(seed: seed))
        _ = writer.document()
        var bytes = writer.text
        var generator = SeededGenerator(seed: seed &* 31 &+ 5)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = Int.random(in: 0...bytes.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0 where position < bytes.count: bytes[position] = UInt8.random(in: 0...255, using: &generator)
            case 1: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
            case 2 where position < bytes.count: bytes.remove(at: position)
            default: bytes.removeLast(min(bytes.count, position % 5))
            }
        }
        let atOnce = StreamingCheck.parseAtOnce(bytes)
        if case .error(let error) = atOnce {
            #expect(error.offset >= 0 && error.offset <= bytes.count)
            #expect(error.line >= 1 && error.column >= 1)
        }
        let (outcome, snapshots) = StreamingCheck.byteByByte(bytes)
        #expect(outcome == atOnce)
        #expect(StreamingCheck.firstNonMonotoneStep(snapshots) == nil)
        let cuts = StreamingCheck.randomCuts(count: bytes.count, using: &generator)
        #expect(StreamingCheck.parse(bytes, cuts: cuts).outcome == atOnce)
    }
}
