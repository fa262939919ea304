import Foundation

extension Transcript {
    /// A segment that attaches content to a prompt, an image or data of a content type, with an
    /// optional label. Models that read images (``LanguageModelCapabilities/Capability/vision``)
    /// receive images, and models that accept a data type (``LanguageModel/supportsDataAttachmentType(_:)``)
    /// receive data of it; a session refuses the others before the model is asked.
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
        /// Bytes of a content type, for models that accept that type.
        case data(DataAttachment)
    }
}

extension Transcript.AttachmentSegment: PromptRepresentable {
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.attachment(self)])
    }
}
