import HTTPWire
import Testing

/// The chunked-body decoder that the server's request parser and the client's response parser
/// share: bodies read the same whatever the pieces their bytes arrive in, the bytes after a body
/// left unread, each kind of bad chunk refused, each limit kept as soon as it is passed, and a
/// body cut short reported with where it was cut.
@Suite struct ChunkedDecoderTests {
    /// Limits as the request parser sets them by default (16 KiB of trailer fields, 8 MiB of body).
    static let requestLimits = ChunkedDecoder.Limits(maximumTrailerBytes: 16 * 1024, maximumBodyBytes: 8 * 1024 * 1024)
    /// Limits as the response parser sets them by default (64 KiB of trailer fields, no bound on the body).
    static let responseLimits = ChunkedDecoder.Limits(maximumTrailerBytes: 64 * 1024)

    /// What a decoder gives for `pieces` fed one after the other, each appended to what is left
    /// of the earlier ones, as both parsers do: the body, whether it ended, and the bytes after it.
    static func decode(pieces: [[UInt8]], limits: ChunkedDecoder.Limits = requestLimits) throws(ChunkedDecoder.Violation) -> (body: String, ended: Bool, rest: String) {
        var decoder = ChunkedDecoder(limits: limits)
        var buffer: [UInt8] = []
        var body: [UInt8] = []
        for piece in pieces {
            buffer += piece
            var start = 0
            while !decoder.isComplete, let step = try decoder.next(in: buffer, from: &start) {
                switch step {
                case .data(let range):
                    #expect(!range.isEmpty)
                    body += buffer[range]
                case .end:
                    break
                }
            }
            buffer.removeFirst(start)
        }
        return (String(decoding: body, as: UTF8.self), decoder.isComplete, String(decoding: buffer, as: UTF8.self))
    }

    static func decode(_ text: String, limits: ChunkedDecoder.Limits = requestLimits) throws(ChunkedDecoder.Violation) -> (body: String, ended: Bool, rest: String) {
        try decode(pieces: [Array(text.utf8)], limits: limits)
    }

    /// A streamed response's body (an extension, an empty line in the data, a trailer field) and
    /// a request's body (a named extension, a trailer field), each followed by what comes next on
    /// the connection.
    static let bodies: [(text: String, body: String)] = [
        ("7\r\ndata: 1\r\n" + "a;name=value\r\n\n\ndata: 22\r\n" + "0\r\nX-Trailer: yes\r\n\r\n", "data: 1\n\ndata: 22"),
        ("4;name=value\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\nX-Trailer: 1\r\n\r\n", "{\"a\":1}"),
        ("0003\r\nabc\r\n0\r\n\r\n", "abc"),
        ("0\r\n\r\n", ""),
    ]

    @Test func aBodyIsReadWhateverItsPieces() throws {
        let next = "GET /health HTTP/1.1\r\n\r\n"
        for (text, expected) in Self.bodies {
            let whole = try Self.decode(text + next)
            #expect(whole.body == expected && whole.ended && whole.rest == next, "\(text.debugDescription)")
            let bytes = Array((text + next).utf8)
            for cut in 1..<bytes.count {
                let pieces = try Self.decode(pieces: [Array(bytes[..<cut]), Array(bytes[cut...])])
                #expect(pieces == whole, "\(text.debugDescription) cut at \(cut)")
            }
            let oneByOne = try Self.decode(pieces: bytes.map { [$0] })
            #expect(oneByOne.body == expected && oneByOne.ended, "\(text.debugDescription) byte by byte")
            // Byte by byte, the decoder stops at the body's end: the next request is left whole.
            #expect(oneByOne.rest == next)
        }
    }

    @Test func badChunksAreRefused() {
        let cases = [
            "zz\r\n", "-1\r\n", "\r\n", "5 5\r\n", "3\r\nabcdef\r\n", "2\r\nabc\r\n0\r\n\r\n", "3\nabc\r\n", "2\nab\r\n0\r\n\r\n",
            "3\r\nabc\n0\r\n\r\n", "\n", "3\r\nabc\r0\r\n\r\n", "1;a=\u{1}\r\n", "1000000000000000\r\n", "FFFFFFFFFFFFFFFFFF\r\n",
            String(repeating: "0", count: 2000) + "1\r\n", "0\r\nBad Name: x\r\n\r\n", "0\r\n folded: x\r\n\r\n", "0\r\nNo-Colon\r\n\r\n",
            "0\r\nX: a\u{0}b\r\n\r\n", "0\r\nX: 1\n\r\n",
        ]
        for text in cases {
            #expect(throws: ChunkedDecoder.Violation.self, "\(text.debugDescription)") { try Self.decode(text) }
            do {
                _ = try Self.decode(text)
            } catch {
                guard case .malformed = error else {
                    Issue.record("\(text.debugDescription): \(error)")
                    continue
                }
            }
        }
        #expect(throws: ChunkedDecoder.Violation.malformed("a chunk size beyond 2^60 bytes")) { try Self.decode("1000000000000000\r\n") }
        #expect(throws: ChunkedDecoder.Violation.malformed("a line feed without its carriage return in a chunked body")) { try Self.decode("3\nabc") }
        // A chunk longer than its size is refused at its first extra byte.
        #expect(throws: ChunkedDecoder.Violation.malformed("a chunk longer than its size (its data does not end with CRLF)")) { try Self.decode("2\r\nabc") }
    }

    @Test func aSizeLineBeyondItsLimitIsRefusedWithoutWaitingForItsEnd() throws {
        let limits = ChunkedDecoder.Limits(maximumSizeLineBytes: 32, maximumTrailerBytes: 256)
        #expect(throws: ChunkedDecoder.Violation.malformed("a chunk-size line longer than 32 bytes")) {
            try Self.decode("1;" + String(repeating: "e", count: 2000), limits: limits)
        }
        // The default limit, 1 KiB, whatever pieces the line arrives in.
        let long = Array(("1;" + String(repeating: "e", count: 2000)).utf8)
        #expect(throws: ChunkedDecoder.Violation.malformed("a chunk-size line longer than 1024 bytes")) {
            try Self.decode(pieces: long.map { [$0] })
        }
        // A line of exactly the limit is read.
        let line = "3;" + String(repeating: "e", count: 30)
        #expect(try Self.decode(line + "\r\nabc\r\n0\r\n\r\n", limits: limits).body == "abc")
        #expect(throws: ChunkedDecoder.Violation.self) { try Self.decode(line + "e\r\nabc\r\n0\r\n\r\n", limits: limits) }
    }

    @Test func trailerFieldsBeyondTheirLimitAreRefusedWithoutWaitingForTheirEnd() throws {
        let limits = ChunkedDecoder.Limits(maximumTrailerBytes: 256, maximumBodyBytes: 100)
        #expect(throws: ChunkedDecoder.Violation.trailersTooLarge(limit: 256)) {
            try Self.decode("0\r\nX: " + String(repeating: "a", count: 300), limits: limits)
        }
        #expect(throws: ChunkedDecoder.Violation.trailersTooLarge(limit: 256)) {
            try Self.decode("0\r\n" + String(repeating: "X: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n", count: 8), limits: limits)
        }
        // Field lines that fill the bound exactly (CRLFs included) are read, and the blank line after them.
        let fields = String(repeating: "X: " + String(repeating: "a", count: 59) + "\r\n", count: 4)
        #expect(try Self.decode("0\r\n" + fields + "\r\n", limits: limits).ended)
        #expect(throws: ChunkedDecoder.Violation.trailersTooLarge(limit: 256)) { try Self.decode("0\r\n" + fields + "Y: 1\r\n\r\n", limits: limits) }
    }

    @Test func aBodyBeyondItsLimitIsRefusedAtTheSizeThatPassesIt() throws {
        let limits = ChunkedDecoder.Limits(maximumTrailerBytes: 256, maximumBodyBytes: 100)
        let sixty = "3c\r\n" + String(repeating: "x", count: 60) + "\r\n"
        #expect(throws: ChunkedDecoder.Violation.bodyTooLarge(length: 120, limit: 100)) { try Self.decode(sixty + sixty, limits: limits) }
        // Refused before the chunk's data arrives.
        #expect(throws: ChunkedDecoder.Violation.bodyTooLarge(length: 0x895441, limit: 8 * 1024 * 1024)) { try Self.decode("895441\r\n") }
        #expect(try Self.decode(sixty + "28\r\n" + String(repeating: "y", count: 40) + "\r\n0\r\n\r\n", limits: limits).body.count == 100)
        // Without a bound (the response parser streams the body on), any size up to 2^60 is read.
        #expect(try Self.decode("fffffffffffffff\r\nab", limits: Self.responseLimits).body == "ab")
    }

    @Test func aBodyCutShortSaysWhereItWasCut() throws {
        func finished(_ text: String) throws(ChunkedDecoder.Violation) {
            var decoder = ChunkedDecoder(limits: Self.requestLimits)
            var start = 0
            let buffer = Array(text.utf8)
            while try decoder.next(in: buffer, from: &start) != nil {}
            try decoder.finish()
        }
        try finished("3\r\nabc\r\n0\r\n\r\n")
        #expect(throws: ChunkedDecoder.Violation.incomplete("the body ended before its last chunk")) { try finished("") }
        #expect(throws: ChunkedDecoder.Violation.incomplete("the body ended before its last chunk")) { try finished("3\r\nabc\r\n") }
        #expect(throws: ChunkedDecoder.Violation.incomplete("the body ended before its last chunk")) { try finished("3\r\nabc\r") }
        #expect(throws: ChunkedDecoder.Violation.incomplete("the body ended 253 bytes before the end of a chunk")) { try finished("100\r\nabc") }
        #expect(throws: ChunkedDecoder.Violation.incomplete("the body ended within its trailer fields")) { try finished("0\r\nX: 1\r\n") }
    }
}
