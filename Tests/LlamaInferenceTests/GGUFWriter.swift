/// Writes small GGUF images for tests: a header, metadata and tensors.
struct GGUFWriter {
    var bytes: [UInt8] = []

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func string(_ text: String) {
        integer(UInt64(text.utf8.count))
        bytes += text.utf8
    }

    /// A file with string, integer and float metadata and F32 tensors of the given shapes.
    static func file(
        version: UInt32 = 3, metadata: [(String, Any)], tensors: [(name: String, dimensions: [UInt64], values: [Float])]
    ) -> [UInt8] {
        var writer = GGUFWriter()
        writer.integer(UInt32(0x4655_4747))
        writer.integer(version)
        writer.integer(UInt64(tensors.count))
        writer.integer(UInt64(metadata.count))
        for (key, value) in metadata {
            writer.string(key)
            switch value {
            case let text as String:
                writer.integer(UInt32(8))
                writer.string(text)
            case let number as UInt32:
                writer.integer(UInt32(4))
                writer.integer(number)
            case let number as Float:
                writer.integer(UInt32(6))
                writer.integer(number.bitPattern)
            case let texts as [String]:
                writer.integer(UInt32(9))
                writer.integer(UInt32(8))
                writer.integer(UInt64(texts.count))
                for text in texts { writer.string(text) }
            default:
                break
            }
        }
        var offset: UInt64 = 0
        for tensor in tensors {
            writer.string(tensor.name)
            writer.integer(UInt32(tensor.dimensions.count))
            for dimension in tensor.dimensions { writer.integer(dimension) }
            writer.integer(UInt32(0))
            writer.integer(offset)
            offset += UInt64(tensor.values.count * 4 + 31) / 32 * 32
        }
        while writer.bytes.count % 32 != 0 { writer.bytes.append(0) }
        for tensor in tensors {
            for value in tensor.values { writer.integer(value.bitPattern) }
            while writer.bytes.count % 32 != 0 { writer.bytes.append(0) }
        }
        return writer.bytes
    }
}
