// The libFuzzer target for the HTTP response parser of the client for served models, built by
// `scripts/fuzz.sh http-response` against the HTTPWire module. For every input it checks that:
// - parsing never crashes, and ends in a head, body bytes and an end, a wait for more bytes, or
//   a typed error, also when the connection closes after the input;
// - the outcome is the same fed all at once, byte by byte, and in a chunking chosen from the
//   input's hash;
// - no head exceeds the limits (header count), and nothing follows the end.

import HTTPWire

struct Outcome: Equatable {
    var heads: [HTTPResponseParser.Head] = []
    var body: [UInt8] = []
    var ended = false
    var error: HTTPResponseError?
}

let limits = HTTPResponseParser.Limits(maximumHeadBytes: 512, maximumHeaderCount: 8, maximumChunkLineBytes: 32)

func parse(_ bytes: UnsafeBufferPointer<UInt8>, cuts: [Int]) -> Outcome {
    var parser = HTTPResponseParser(limits: limits)
    var outcome = Outcome()
    func take(_ part: HTTPResponseParser.Part) {
        if outcome.ended { violation("a part after the end") }
        switch part {
        case .head(let head):
            guard head.headers.count <= limits.maximumHeaderCount, (100...999).contains(head.status) else { violation("a head beyond the limits") }
            if !outcome.heads.isEmpty { violation("a second head") }
            outcome.heads.append(head)
        case .body(let bytes):
            if outcome.heads.isEmpty || bytes.isEmpty { violation("a body part without a head, or an empty one") }
            outcome.body += bytes
        case .end:
            outcome.ended = true
        }
    }
    var start = 0
    do throws(HTTPResponseError) {
        for end in cuts + [bytes.count] where end >= start {
            parser.append(bytes[start..<end])
            start = end
            while let part = try parser.next() { take(part) }
        }
        if let part = try parser.finish() { take(part) }
        if !parser.isComplete { violation("finished without an end or an error") }
    } catch {
        outcome.error = error
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    requireSameOutcomeInAnyPieces(UnsafeBufferPointer(start: data, count: size)) { parse($0, cuts: $1) }
    return 0
}
