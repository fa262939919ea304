@testable import ConstrainedDecoding
import Testing

extension GrammarMatcher {
    /// The allowed tokens before each byte of `document` and after the last, reading the document
    /// byte by byte (each byte must be accepted).
    func masks(along document: [UInt8], vocabularySize: Int) -> [[Int32]] {
        var mask = TokenBitset(capacity: vocabularySize)
        var masks: [[Int32]] = []
        for byte in document {
            allowedTokens(into: &mask)
            masks.append((0..<Int32(vocabularySize)).filter { mask.contains($0) })
            #expect(advance(bytes: [byte]))
        }
        allowedTokens(into: &mask)
        masks.append((0..<Int32(vocabularySize)).filter { mask.contains($0) })
        return masks
    }
}
