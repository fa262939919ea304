import Foundation

/// The orientation an encoded image records for itself: the EXIF `Orientation` tag of a JPEG
/// file (in its APP1 `Exif` segment) or of a PNG file (in its `eXIf` chunk). Every offset is
/// checked: bytes that are not such a file, or that are cut short, give `nil`.
enum ExifOrientation {
    /// The orientation recorded in `bytes`, if they are a JPEG or PNG image that records one.
    static func orientation(in bytes: Data) -> CGImagePropertyOrientation? {
        let bytes = [UInt8](bytes)
        let tiff = jpegExif(bytes) ?? pngExif(bytes)
        guard let tiff, let value = orientationTag(inTIFF: tiff) else { return nil }
        return CGImagePropertyOrientation(rawValue: UInt32(value))
    }

    /// The TIFF data of a JPEG file's `Exif` segment.
    private static func jpegExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            // Markers without a length: padding, restart markers, start and end of image.
            if marker == 0xFF { offset += 1; continue }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { offset += 2; continue }
            // The compressed data starts, or the image ends: no Exif segment came before.
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let body = bytes[(offset + 4)..<(offset + 2 + length)]
            if marker == 0xE1, body.starts(with: Array("Exif".utf8) + [0, 0]) {
                return body.dropFirst(6)
            }
            offset += 2 + length
        }
        return nil
    }

    /// The TIFF data of a PNG file's `eXIf` chunk.
    private static func pngExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.starts(with: signature) else { return nil }
        var offset = signature.count
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard length >= 0, offset + 8 + length <= bytes.count else { return nil }
            if type == "eXIf" { return bytes[(offset + 8)..<(offset + 8 + length)] }
            if type == "IDAT" || type == "IEND" { return nil }
            offset += 12 + length
        }
        return nil
    }

    /// The value of tag 0x0112 (`Orientation`) in the first directory of TIFF data.
    private static func orientationTag(inTIFF tiff: ArraySlice<UInt8>) -> UInt16? {
        let data = Array(tiff)
        guard data.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (data[0], data[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, offset + size <= data.count else { return nil }
            let field = data[offset..<(offset + size)]
            return (littleEndian ? Array(field.reversed()) : Array(field)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard integer(at: 2, size: 2) == 42, let directory = integer(at: 4, size: 4), let count = integer(at: directory, size: 2) else { return nil }
        for index in 0..<count {
            let entry = directory + 2 + index * 12
            guard let tag = integer(at: entry, size: 2), let type = integer(at: entry + 2, size: 2) else { return nil }
            // A SHORT (type 3) holds its value in the first two bytes of the value field.
            if tag == 0x0112, type == 3, let value = integer(at: entry + 8, size: 2) { return UInt16(truncatingIfNeeded: value) }
        }
        return nil
    }
}
