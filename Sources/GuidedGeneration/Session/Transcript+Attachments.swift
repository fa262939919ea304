import Foundation

extension Transcript {
    /// A segment that attaches content to a prompt, an image for now, with an optional label.
    /// Models that read images (``LanguageModelCapabilities/Capability/vision``) receive it; a
    /// session refuses it for any other model before the model is asked.
    public struct AttachmentSegment: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        /// What is attached.
        public var content: Attachment
        /// A short name for it, if any.
        public var label: String?

        public init(id: String = UUID().uuidString, content: Attachment, label: String? = nil) {
            self.id = id
            self.content = content
            self.label = label
        }
    }

    /// What an attachment holds.
    public enum Attachment: Sendable, Equatable, Codable {
        /// An image.
        case image(ImageAttachment)
    }

    /// An image: its encoded bytes and their content type (`image/png`, `image/jpeg`, ...), or
    /// the URL of a file or a `data:` URL that holds it.
    public struct ImageAttachment: Sendable, Equatable, Codable {
        /// The encoded image, when given as bytes.
        public var data: Data?
        /// The content type of ``data`` (`image/png`, `image/jpeg`, ...).
        public var contentType: String?
        /// Where the image is, when given by URL.
        public var url: URL?

        /// An image from its encoded bytes and their content type.
        public init(data: Data, contentType: String) {
            self.data = data
            self.contentType = contentType
        }

        /// An image in a file, on a server or in a `data:` URL.
        public init(imageURL: URL) {
            url = imageURL
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
            let type =
                switch url.pathExtension.lowercased() {
                case "png": "image/png"
                case "jpg", "jpeg": "image/jpeg"
                case "gif": "image/gif"
                case "webp": "image/webp"
                default: "application/octet-stream"
                }
            return "data:\(type);base64,\(try Data(contentsOf: url).base64EncodedString())"
        }
    }
}

extension Transcript.AttachmentSegment: PromptRepresentable {
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.attachment(self)])
    }
}

extension Transcript.ImageAttachment: PromptRepresentable {
    /// The image as an attachment of the prompt, without a label.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.attachment(Transcript.AttachmentSegment(content: .image(self)))])
    }
}
