import PartialJSON
import Testing

/// Numbers are kept as text and converted exactly, with range errors.
@Suite struct JSONNumberTests {
    @Test func hugeNumbersAreKeptExactly() throws {
        let text = "123456789012345678901234567890.123456789e-5"
        let value = try JSONValue(parsing: "[\(text)]")
        #expect(value.arrayValue?.first?.numberValue?.text == text)
        #expect(value.jsonString == "[\(text)]")
    }

    @Test func integerConversionIsExact() throws {
        #expect(try JSONNumber("42")!.intValue() == 42)
        #expect(try JSONNumber("-0")!.intValue() == 0)
        #expect(try JSONNumber("1.0")!.intValue() == 1)
        #expect(try JSONNumber("1e2")!.intValue() == 100)
        #expect(try JSONNumber("12.5e1")!.intValue() == 125)
        #expect(try JSONNumber("9223372036854775807")!.intValue() == Int.max)
        #expect(try JSONNumber("-9223372036854775808")!.intValue() == Int.min)
        #expect(try JSONNumber("0.000e99999999999")!.intValue() == 0)
        #expect(throws: JSONNumber.ConversionError.outOfRange("9223372036854775808", type: "Int")) {
            try JSONNumber("9223372036854775808")!.intValue()
        }
        #expect(throws: JSONNumber.ConversionError.outOfRange("1e19", type: "Int")) { try JSONNumber("1e19")!.intValue() }
        #expect(throws: JSONNumber.ConversionError.notAnInteger("1.5")) { try JSONNumber("1.5")!.intValue() }
        #expect(throws: JSONNumber.ConversionError.notAnInteger("1e-1")) { try JSONNumber("1e-1")!.intValue() }
    }

    @Test func doubleConversionReportsOverflow() throws {
        #expect(try JSONNumber("-2.5e-3")!.doubleValue() == -0.0025)
        #expect(try JSONNumber("123.456e-789")!.doubleValue() == 0)
        #expect(throws: JSONNumber.ConversionError.outOfRange("1.5e999", type: "Double")) { try JSONNumber("1.5e999")!.doubleValue() }
        #expect(throws: JSONNumber.ConversionError.outOfRange("-1e400", type: "Double")) { try JSONNumber("-1e400")!.doubleValue() }
    }

    @Test func onlyJSONNumberSyntaxIsAccepted() {
        for text in ["-1", "0", "0.5", "1E+2", "-0.0e-0"] { #expect(JSONNumber(text) != nil, "\(text)") }
        for text in ["", "-", "01", "1.", ".5", "+1", "1e", "0x1", "NaN", "1 "] { #expect(JSONNumber(text) == nil, "\(text)") }
    }

    @Test func doublesAreWrittenSoThatTheyReadBack() throws {
        for value in [0.1, -2.5, 1e300, Double.leastNonzeroMagnitude, 123456789.0, 1e15, -0.0] {
            let number = try #require(JSONNumber(value))
            #expect(try number.doubleValue() == value, "\(number)")
        }
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(Double.nan) == nil)
    }
}
