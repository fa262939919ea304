import Foundation

extension Transcript {
    /// An image: its encoded bytes and their content type (`image/png`, `image/jpeg`, ...), or
    /// the URL of a file, a web page or a `data:` URL that holds it, with the orientation it is
    /// to be shown in.
    public struct ImageAttachment: Sendable, Equatable, Codable {
        /// The encoded image, when given as bytes.
        public var data: Data?
        /// The content type of ``data`` (`image/png`, `image/jpeg`, ...).
        public var contentType: String?
        /// Where the image is, when given by URL.
        public var url: URL?
        /// The orientation given when the attachment was made; `nil` for the image's own.
        var givenOrientation: CGImagePropertyOrientation?

        /// An image from its encoded bytes and their MIME type, shown in `orientation` (`nil`
        /// for the one the image records).
        public init(data: Data, contentType: String, orientation: CGImagePropertyOrientation? = nil) {
            self.data = data
            self.contentType = contentType
            givenOrientation = orientation
        }

        /// An image from its encoded bytes and their content type (``UTType/png``,
        /// ``UTType/jpeg``, ...), shown in `orientation` (`nil` for the one the image records).
        public init(data: Data, contentType: UTType, orientation: CGImagePropertyOrientation? = nil) {
            self.init(data: data, contentType: contentType.preferredMIMEType ?? contentType.identifier, orientation: orientation)
        }

        /// An image in a file, on a server or in a `data:` URL, shown in `orientation` (`nil` for
        /// the one the image records).
        public init(imageURL: URL, orientation: CGImagePropertyOrientation? = nil) {
            url = imageURL
            givenOrientation = orientation
        }

        /// The orientation the image is to be shown in: the one given, else the one the image
        /// records (the EXIF orientation of a JPEG or PNG image, read from its bytes, its file
        /// or its `data:` URL), else ``CGImagePropertyOrientation/up``.
        public var orientation: CGImagePropertyOrientation {
            if let givenOrientation { return givenOrientation }
            return encodedBytes().flatMap(ExifOrientation.orientation(in:)) ?? .up
        }

        /// The image's bytes, when they are at hand: given, in a file, or in a `data:` URL.
        private func encodedBytes() -> Data? {
            if let data { return data }
            guard let url else { return nil }
            if url.isFileURL { return try? Data(contentsOf: url) }
            guard url.scheme == "data" else { return nil }
            let text = url.absoluteString
            guard let comma = text.firstIndex(of: ","), text[..<comma].hasSuffix(";base64") else { return nil }
            return Data(base64Encoded: String(text[text.index(after: comma)...]))
        }

        /// Where a served model finds the image: a `data:` URL of the bytes (a file's are read),
        /// else the image's own URL; `nil` when the attachment holds neither.
        /// - Throws: What reading the file throws.
        func address() throws -> String? {
            if let data {
                return "data:\(contentType ?? "application/octet-stream");base64,\(data.base64EncodedString())"
            }
            guard let url else { return nil }
            if url.scheme == "data" { return url.absoluteString }
            guard url.isFileURL else { return url.absoluteString }
            let type = UTType(filenameExtension: url.pathExtension, conformingTo: .image)?.preferredMIMEType ?? "application/octet-stream"
            return "data:\(type);base64,\(try Data(contentsOf: url).base64EncodedString())"
        }

        private enum CodingKeys: String, CodingKey {
            case data, contentType, url, orientation
        }

        /// Decodes an image as ``encode(to:)`` writes it; a transcript saved without
        /// orientations reads as before.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            data = try container.decodeIfPresent(Data.self, forKey: .data)
            contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
            url = try container.decodeIfPresent(URL.self, forKey: .url)
            if let value = try container.decodeIfPresent(UInt32.self, forKey: .orientation) {
                guard let orientation = CGImagePropertyOrientation(rawValue: value) else {
                    throw DecodingError.dataCorruptedError(forKey: .orientation, in: container, debugDescription: "\(value) is no EXIF orientation (1 to 8).")
                }
                givenOrientation = orientation
            }
        }

        /// Encodes the image: its bytes (base64) and type, or its URL, and the orientation given
        /// (as its EXIF number).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(data, forKey: .data)
            try container.encodeIfPresent(contentType, forKey: .contentType)
            try container.encodeIfPresent(url, forKey: .url)
            try container.encodeIfPresent(givenOrientation?.rawValue, forKey: .orientation)
        }
    }
}

extension Transcript.ImageAttachment: PromptRepresentable {
    /// The image as an attachment of the prompt, without a label.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.attachment(Transcript.AttachmentSegment(content: .image(self)))])
    }
}
