// The libFuzzer target for PartialJSON, built by `scripts/fuzz.sh partial-json` together with
// the module's sources. For every input it checks that:
// - parsing never crashes, and an error always carries a position inside the input;
// - the outcome (value or error) is the same fed all at once, byte by byte, and in a chunking
//   chosen from the input's hash;
// - snapshots taken after each chunk are monotone, and the last one equals the final value.

enum Outcome: Equatable {
    case value(JSONValue)
    case error(JSONParseError)
}

/// Feeds `bytes` in chunks ending at `cuts` and returns the outcome, checking snapshots when asked.
func parse(_ bytes: UnsafeBufferPointer<UInt8>, cuts: [Int], checkSnapshots: Bool) -> Outcome {
    let parser = PartialJSONParser()
    var previous: PartialJSONValue?
    var start = 0
    do throws(JSONParseError) {
        for end in cuts + [bytes.count] where end >= start {
            try parser.feed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
            start = end
            guard checkSnapshots else { continue }
            let snapshot = parser.snapshot.value
            if let earlier = previous {
                guard let later = snapshot, earlier.isExtended(by: later) else { violation("snapshots are not monotone") }
            }
            previous = snapshot ?? previous
        }
        let value = try parser.finish()
        if checkSnapshots, parser.snapshot.value?.value != value || parser.snapshot.isComplete == false {
            violation("the last snapshot differs from the final value")
        }
        return .value(value)
    } catch {
        guard error.offset >= 0, error.offset <= bytes.count, error.line >= 1, error.column >= 1 else {
            violation("error without a valid position: \(error)")
        }
        return .error(error)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The chunking comes from the input itself, so that each input is replayed exactly.
    let cuts = chunkCuts(of: bytes)
    let atOnce = parse(bytes, cuts: [], checkSnapshots: false)
    let chunked = parse(bytes, cuts: cuts, checkSnapshots: true)
    let byteByByte = parse(bytes, cuts: Array(0..<size), checkSnapshots: size <= 128)
    guard atOnce == chunked, atOnce == byteByByte else { violation("outcome depends on the chunking") }
    return 0
}
