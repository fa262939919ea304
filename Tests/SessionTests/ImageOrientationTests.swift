import Foundation
import Testing

@testable import GuidedGeneration

/// An image attachment's orientation: the one given, else the EXIF orientation the image
/// records (JPEG and PNG), else upright; kept when the transcript is encoded.
@Suite struct ImageOrientationTests {
    /// TIFF data with one directory holding the `Orientation` tag.
    static func tiff(orientation: UInt16, littleEndian: Bool) -> [UInt8] {
        func short(_ value: UInt16) -> [UInt8] { littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func long(_ value: UInt32) -> [UInt8] {
            let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
            return littleEndian ? bytes.reversed() : bytes
        }
        let header: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        // A directory of two entries: the image width (LONG), then the orientation (SHORT).
        return header + short(42) + long(8) + short(2)
            + short(0x0100) + short(4) + long(1) + long(640)
            + short(0x0112) + short(3) + long(1) + short(orientation) + [0, 0]
            + long(0)
    }

    /// A JPEG file's first bytes: an APP0 segment, then APP1 `Exif` with the orientation.
    static func jpeg(orientation: UInt16, littleEndian: Bool = true) -> Data {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x07] + Array("JFIF".utf8) + [0]
        let exif = Array("Exif".utf8) + [0, 0] + tiff(orientation: orientation, littleEndian: littleEndian)
        let length = exif.count + 2
        return Data([0xFF, 0xD8] + app0 + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif + [0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9])
    }

    /// A PNG file's first bytes: the signature, an `eXIf` chunk with the orientation, the end.
    static func png(orientation: UInt16) -> Data {
        let exif = tiff(orientation: orientation, littleEndian: false)
        let length = UInt32(exif.count)
        let chunk = [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
            + Array("eXIf".utf8) + exif + [0, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk + [0, 0, 0, 0] + Array("IEND".utf8) + [0, 0, 0, 0])
    }

    @Test func theOrientationGivenWins() {
        let image = Transcript.ImageAttachment(data: Self.jpeg(orientation: 6), contentType: "image/jpeg", orientation: .left)
        #expect(image.orientation == .left)
        #expect(Transcript.ImageAttachment(imageURL: URL(string: "https://example.com/a.png")!, orientation: .down).orientation == .down)
    }

    @Test func withoutOneTheImageSaysItsOwn() {
        #expect(Transcript.ImageAttachment(data: Self.jpeg(orientation: 6), contentType: "image/jpeg").orientation == .right)
        #expect(Transcript.ImageAttachment(data: Self.jpeg(orientation: 3, littleEndian: false), contentType: .jpeg).orientation == .down)
        #expect(Transcript.ImageAttachment(data: Self.png(orientation: 8), contentType: .png).orientation == .left)
        #expect(Transcript.ImageAttachment(data: Self.jpeg(orientation: 2), contentType: "image/jpeg").orientation == .upMirrored)
    }

    @Test func anImageThatSaysNothingIsUpright() {
        #expect(Transcript.ImageAttachment(data: Data([0x89, 0x50, 0x4E, 0x47]), contentType: "image/png").orientation == .up)
        #expect(Transcript.ImageAttachment(data: Self.jpeg(orientation: 42), contentType: "image/jpeg").orientation == .up)
        #expect(Transcript.ImageAttachment(imageURL: URL(string: "https://example.com/a.png")!).orientation == .up)
        // Cut short anywhere, the bytes give no orientation and no crash.
        let whole = Self.jpeg(orientation: 6)
        for length in 0..<whole.count {
            let orientation = Transcript.ImageAttachment(data: whole.prefix(length), contentType: "image/jpeg").orientation
            #expect(orientation == .up || orientation == .right)
        }
    }

    @Test func aFileOrADataURLIsReadForItsOrientation() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("oriented-\(UUID().uuidString).jpg")
        try Self.jpeg(orientation: 8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(Transcript.ImageAttachment(imageURL: file).orientation == .left)
        let dataURL = try #require(URL(string: "data:image/png;base64," + Self.png(orientation: 6).base64EncodedString()))
        #expect(Transcript.ImageAttachment(imageURL: dataURL).orientation == .right)
    }

    @Test func theAttachmentCarriesTheOrientationIntoThePromptAndTheTranscript() throws {
        let url = URL(fileURLWithPath: "/tmp/photo.jpg")
        let prompt = Prompt {
            "What is in this photo?"
            Attachment(imageURL: url, orientation: .rightMirrored).label("photo")
        }
        guard case .attachment(let segment) = prompt.transcriptSegments.last, case .image(let image) = segment.content else {
            Issue.record("no image attachment in \(prompt.transcriptSegments)")
            return
        }
        #expect(image.orientation == .rightMirrored && image.url == url && segment.label == "photo")
        let transcript = Transcript(entries: [.prompt(Transcript.Prompt(segments: prompt.transcriptSegments))])
        let decoded = try JSONDecoder().decode(Transcript.self, from: try JSONEncoder().encode(transcript))
        #expect(decoded == transcript)
        // A transcript saved without orientations reads as before.
        let saved = #"{"url":"file:\/\/\/tmp\/photo.jpg"}"#
        let old = try JSONDecoder().decode(Transcript.ImageAttachment.self, from: Data(saved.utf8))
        #expect(old.url == url && old == Transcript.ImageAttachment(imageURL: url))
        let wrong = #"{"url":"file:\/\/\/tmp\/photo.jpg","orientation":9}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Transcript.ImageAttachment.self, from: Data(wrong.utf8)) }
    }
}
