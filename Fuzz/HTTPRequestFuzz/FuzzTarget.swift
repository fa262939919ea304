// The libFuzzer target for the HTTP request parser of `guided serve`, built by
// `scripts/fuzz.sh http-request` together with Sources/GuidedServer/HTTP. For every input it
// checks that:
// - parsing never crashes, and ends in requests, a wait for more bytes, or a typed error;
// - the outcome is the same fed all at once, byte by byte, and in a chunking chosen from the
//   input's hash;
// - no request exceeds the limits (header count, body size).

struct Outcome: Equatable {
    var requests: [HTTPRequest]
    var error: HTTPRequestError?
}

let limits = HTTPLimits(maximumHeaderBytes: 512, maximumHeaderCount: 8, maximumBodyBytes: 256)

func parse(_ bytes: UnsafeBufferPointer<UInt8>, cuts: [Int]) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = Outcome(requests: [], error: nil)
    var start = 0
    do throws(HTTPRequestError) {
        for end in cuts + [bytes.count] where end >= start {
            parser.append(bytes[start..<end])
            start = end
            while let request = try parser.nextRequest() {
                guard request.headers.count <= limits.maximumHeaderCount, request.body.count <= limits.maximumBodyBytes else {
                    violation("a request beyond the limits")
                }
                outcome.requests.append(request)
            }
        }
    } catch {
        outcome.error = error
        guard (400...505).contains(error.status) else { violation("an error without a status: \(error)") }
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    requireSameOutcomeInAnyPieces(UnsafeBufferPointer(start: data, count: size)) { parse($0, cuts: $1) }
    return 0
}
