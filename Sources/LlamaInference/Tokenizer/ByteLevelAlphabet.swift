/// GPT-2's byte-level alphabet: each byte stands for a printable character in the token strings
/// of byte-level BPE vocabularies (a space is `Ġ`, a newline `Ċ`).
enum ByteLevelAlphabet {
    /// The character of each byte.
    static let characterOfByte: [Unicode.Scalar] = {
        var printable = Array(UInt32(0x21)...0x7E) + Array(UInt32(0xA1)...0xAC) + Array(UInt32(0xAE)...0xFF)
        var characters = [Unicode.Scalar](repeating: " ", count: 256)
        for byte in printable { characters[Int(byte)] = Unicode.Scalar(byte)! }
        var extra: UInt32 = 0
        for byte in 0..<256 where !printable.contains(UInt32(byte)) {
            characters[byte] = Unicode.Scalar(256 + extra)!
            extra += 1
        }
        printable.removeAll()
        return characters
    }()

    /// The byte of each character of the alphabet.
    static let byteOfCharacter: [Unicode.Scalar: UInt8] = {
        var map: [Unicode.Scalar: UInt8] = [:]
        for (byte, character) in characterOfByte.enumerated() { map[character] = UInt8(byte) }
        return map
    }()

    /// The raw bytes a token string stands for, or `nil` when it uses other characters.
    static func bytes(of token: String) -> [UInt8]? {
        var result: [UInt8] = []
        for scalar in token.unicodeScalars {
            guard let byte = byteOfCharacter[scalar] else { return nil }
            result.append(byte)
        }
        return result
    }
}
