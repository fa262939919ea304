// What the libFuzzer targets share, compiled into each by scripts/fuzz.sh.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where to cut `bytes` into chunks of 1 to 16 bytes, chosen from their hash, so that each
/// input is replayed with the same chunking.
func chunkCuts(of bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    var cuts: [Int] = []
    var position = 0
    while !bytes.isEmpty {
        hash = hash &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        position += Int(hash >> 60) + 1
        guard position < bytes.count else { break }
        cuts.append(position)
    }
    return cuts
}

/// Stops the run: libFuzzer records the input as a crash.
func violation(_ message: String) -> Never {
    print("invariant violated: \(message)")
    abort()
}

/// Stops the run unless `parse` gives the same outcome for `bytes` fed all at once, in the
/// chunking chosen from their hash, and byte by byte.
func requireSameOutcomeInAnyPieces<Outcome: Equatable>(_ bytes: UnsafeBufferPointer<UInt8>, _ parse: (UnsafeBufferPointer<UInt8>, [Int]) -> Outcome) {
    let atOnce = parse(bytes, [])
    guard atOnce == parse(bytes, chunkCuts(of: bytes)), atOnce == parse(bytes, Array(0..<bytes.count)) else {
        violation("the outcome depends on how the bytes arrive")
    }
}
