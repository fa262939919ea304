import Foundation

extension Transcript {
    /// Bytes attached to a prompt or to instructions, with the content type that says how to
    /// read them and metadata about them: the portable form of a ``DataAttachmentRepresentable``
    /// value. Only a model that accepts the type (``LanguageModel/supportsDataAttachmentType(_:)``)
    /// is asked with one; a session refuses it for any other model, before the model is asked,
    /// with ``LanguageModelError/unsupportedTranscriptContent(_:)``.
    ///
    /// A transcript encodes it whole (the content type as its identifier, the bytes in base64,
    /// the metadata as JSON), so that it reads back where the type that made it is unknown.
    public struct DataAttachment: Sendable, Equatable, Codable {
        /// How to read ``content``.
        public var contentType: UTType
        /// The bytes.
        public var content: Data
        /// What the app says about the bytes.
        public var metadata: GeneratedContent

        /// An attachment of `content`, of type `contentType`, with `metadata`.
        public init(contentType: UTType, content: Data, metadata: GeneratedContent = GeneratedContent(properties: [:])) {
            self.contentType = contentType
            self.content = content
            self.metadata = metadata
        }

        private enum CodingKeys: String, CodingKey {
            case contentType, content, metadata
        }

        /// Decodes an attachment as ``encode(to:)`` writes it.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            contentType = try container.decode(UTType.self, forKey: .contentType)
            content = try container.decode(Data.self, forKey: .content)
            metadata = try container.decodeJSONText(forKey: .metadata)
        }

        /// Encodes the attachment: the type as its identifier, the bytes in base64, the metadata as JSON text.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(contentType, forKey: .contentType)
            try container.encode(content, forKey: .content)
            try container.encode(metadata.jsonString, forKey: .metadata)
        }
    }
}
