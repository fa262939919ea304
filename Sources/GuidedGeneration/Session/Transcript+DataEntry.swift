import Foundation

extension Transcript {
    /// An entry of bytes of a content type, with metadata: the portable form of a
    /// ``DataEntryRepresentable`` value, which a custom model's executor can add to the
    /// transcript (``LanguageModelExecutorGenerationChannel/Event/data(entryID:action:)``) or an
    /// app can put in it. A session asks a model with one only when the model accepts its type
    /// (``LanguageModel/supportsDataEntryType(_:)``), and refuses it otherwise, before the model
    /// is asked, with ``LanguageModelError/unsupportedTranscriptContent(_:)``.
    public struct DataEntry: Sendable, Equatable, Identifiable, Codable {
        /// The entry's identifier; an executor's data events name it as their `entryID`.
        public var id: String
        /// How to read ``content``.
        public var contentType: UTType
        /// The bytes.
        public var content: Data
        /// What the producer says about the bytes.
        public var metadata: GeneratedContent

        /// An entry of `content`, of type `contentType`, with `metadata`.
        public init(
            id: String = UUID().uuidString, contentType: UTType, content: Data, metadata: GeneratedContent = GeneratedContent(properties: [:])
        ) {
            self.id = id
            self.contentType = contentType
            self.content = content
            self.metadata = metadata
        }

        private enum CodingKeys: String, CodingKey {
            case id, contentType, content, metadata
        }

        /// Decodes an entry as ``encode(to:)`` writes it.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            contentType = try container.decode(UTType.self, forKey: .contentType)
            content = try container.decode(Data.self, forKey: .content)
            metadata = try container.decodeJSONText(forKey: .metadata)
        }

        /// Encodes the entry: the type as its identifier, the bytes in base64, the metadata as JSON text.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(contentType, forKey: .contentType)
            try container.encode(content, forKey: .content)
            try container.encode(metadata.jsonString, forKey: .metadata)
        }
    }
}
