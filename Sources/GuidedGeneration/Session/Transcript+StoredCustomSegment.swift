import Foundation

extension Transcript {
    /// A custom segment as a transcript stores it: the name of the app's type, its identity,
    /// its description and its content as ``GeneratedContent``. Decoding a transcript gives one
    /// of these for each ``CustomSegment`` it held, since the decoder cannot know the app's
    /// types; an app may also use it directly for content of no type of its own.
    public struct StoredCustomSegment: CustomSegment, Codable {
        /// The segment's identity.
        public var id: String
        /// What kind of content this is: the name of the app's type for a decoded segment.
        public var kind: String
        /// The content.
        public var content: GeneratedContent
        /// The content as text, as the original segment described it.
        public var description: String

        /// A segment of `kind`; its description defaults to the content as compact JSON.
        public init(id: String = UUID().uuidString, kind: String, content: GeneratedContent, description: String? = nil) {
            self.id = id
            self.kind = kind
            self.content = content
            self.description = description ?? content.jsonString
        }

        /// The stored form of any custom segment.
        /// - Throws: `EncodingError` when its content cannot be encoded as JSON.
        init(_ segment: some CustomSegment) throws {
            if let stored = segment as? StoredCustomSegment {
                self = stored
                return
            }
            let text = try Self.jsonText(of: segment.content)
            let content: GeneratedContent
            do {
                content = try GeneratedContent(json: text)
            } catch {
                throw EncodingError.invalidValue(
                    segment.content, .init(codingPath: [], debugDescription: "The content of a custom segment encoded to JSON that cannot be read back: \(error)"))
            }
            self.init(id: segment.id, kind: String(reflecting: type(of: segment)), content: content, description: segment.description)
        }

        private enum CodingKeys: String, CodingKey {
            case id, kind, content, description
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            kind = try container.decode(String.self, forKey: .kind)
            content = try container.decodeJSONText(forKey: .content)
            description = try container.decodeIfPresent(String.self, forKey: .description) ?? content.jsonString
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(content.jsonString, forKey: .content)
            try container.encode(description, forKey: .description)
        }
    }
}
