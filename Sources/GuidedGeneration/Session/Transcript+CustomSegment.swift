import Foundation

extension Transcript {
    /// A segment of the app's own kind: content that the app keeps in the transcript for a
    /// custom ``LanguageModel`` whose executor reads it (a citation, a UI state, a document
    /// reference).
    ///
    /// The models of this library do not read custom segments: the local model leaves them out
    /// of the conversation it renders, and a served model's request refuses them with
    /// ``LanguageModelError/unsupportedTranscriptContent(_:)``, as Apple's chat-completions model
    /// does.
    public struct CustomSegment: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        /// What kind of content this is, as the app names it.
        public var kind: String
        /// The content.
        public var content: GeneratedContent

        public init(id: String = UUID().uuidString, kind: String, content: GeneratedContent) {
            self.id = id
            self.kind = kind
            self.content = content
        }

        private enum CodingKeys: String, CodingKey {
            case id, kind, content
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            kind = try container.decode(String.self, forKey: .kind)
            content = try container.decodeJSONText(forKey: .content)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(content.jsonString, forKey: .content)
        }
    }
}
