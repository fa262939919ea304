import Foundation

/// The history of a session: its instructions, then each prompt, the tool calls and their
/// outputs, and each response, in order. A session can be started from a transcript.
public struct Transcript: Sendable, Equatable, RandomAccessCollection, Codable, CustomStringConvertible {
    /// The entries, in order.
    var entries: [Entry]

    /// Creates a transcript of entries.
    public init(entries: some Sequence<Entry> = []) {
        self.entries = Array(entries)
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }

    public var description: String {
        entries.map(\.description).joined(separator: "\n")
    }

    /// An entry of a transcript.
    public enum Entry: Sendable, Equatable, Identifiable, Codable, CustomStringConvertible {
        /// The instructions of the session, with the tools it offers.
        case instructions(Instructions)
        /// A prompt.
        case prompt(Prompt)
        /// Tools the model called.
        case toolCalls(ToolCalls)
        /// What a tool returned.
        case toolOutput(ToolOutput)
        /// A response of the model.
        case response(Response)
        /// What the model reasoned before its response or tool calls.
        case reasoning(Reasoning)
        /// Bytes of a content type, such as a custom model produces beside its response.
        case data(DataEntry)

        public var id: String {
            switch self {
            case .instructions(let entry): entry.id
            case .prompt(let entry): entry.id
            case .toolCalls(let entry): entry.id
            case .toolOutput(let entry): entry.id
            case .response(let entry): entry.id
            case .reasoning(let entry): entry.id
            case .data(let entry): entry.id
            }
        }

        /// The entry's segments; none for tool calls and data entries.
        var segments: [Segment] {
            switch self {
            case .instructions(let entry): entry.segments
            case .prompt(let entry): entry.segments
            case .toolCalls: []
            case .toolOutput(let entry): entry.segments
            case .response(let entry): entry.segments
            case .reasoning(let entry): entry.segments
            case .data: []
            }
        }

        public var description: String {
            switch self {
            case .instructions(let entry): "(Instructions) " + entry.segments.text
            case .prompt(let entry): "(Prompt) " + entry.segments.text
            case .toolCalls(let entry): "(Tool calls) " + entry.map { "\($0.toolName)(\($0.arguments.jsonString))" }.joined(separator: ", ")
            case .toolOutput(let entry): "(Tool output: \(entry.toolName)) " + entry.segments.text
            case .response(let entry): "(Response) " + entry.segments.text
            case .reasoning(let entry): "(Reasoning) " + entry.segments.text
            case .data(let entry): "(Data: \(entry.contentType.identifier)) \(entry.content.count) bytes"
            }
        }
    }

    /// A piece of an entry: text, structured content, an attachment, or a segment of the app's
    /// own kind.
    public enum Segment: Sendable, Equatable, Identifiable, Codable {
        case text(TextSegment)
        case structure(StructuredSegment)
        /// Content attached to a prompt, such as an image.
        case attachment(AttachmentSegment)
        /// Content of the app's own kind, for a custom ``LanguageModel`` that reads it.
        case custom(any CustomSegment)

        public var id: String {
            switch self {
            case .text(let segment): segment.id
            case .structure(let segment): segment.id
            case .attachment(let segment): segment.id
            case .custom(let segment): segment.id
            }
        }

        /// The segment as text: structured content as compact JSON; nothing for an attachment,
        /// which is not text, or for a custom segment, which only custom models read.
        var text: String {
            switch self {
            case .text(let segment): segment.content
            case .structure(let segment): segment.content.jsonString
            case .attachment, .custom: ""
            }
        }
    }

    /// A text segment.
    public struct TextSegment: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        public var content: String

        public init(id: String = UUID().uuidString, content: String) {
            self.id = id
            self.content = content
        }
    }

    /// A segment of structured content, with the name of what produced it.
    public struct StructuredSegment: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        /// What produced the content (a type or tool name).
        public var source: String
        public var content: GeneratedContent

        public init(id: String = UUID().uuidString, source: String, content: GeneratedContent) {
            self.id = id
            self.source = source
            self.content = content
        }

        /// A segment of content of the schema named `schemaName`, the spelling of Apple's
        /// FoundationModels 27.
        public init(id: String = UUID().uuidString, schemaName: String, content: GeneratedContent) {
            self.init(id: id, source: schemaName, content: content)
        }

        /// The name of the schema the content follows: ``source``, as FoundationModels 27 names it.
        public var schemaName: String {
            get { source }
            set { source = newValue }
        }

        private enum CodingKeys: String, CodingKey {
            case id, source, content
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            source = try container.decode(String.self, forKey: .source)
            content = try container.decodeJSONText(forKey: .content)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(source, forKey: .source)
            try container.encode(content.jsonString, forKey: .content)
        }
    }
}

extension [Transcript.Segment] {
    /// The segments as text, one per line (attachments and custom segments left out).
    package var text: String {
        lazy.filter { switch $0 { case .attachment, .custom: false; default: true } }.map(\.text).joined(separator: "\n")
    }

    /// The attachments among the segments.
    package var attachments: [Transcript.AttachmentSegment] {
        compactMap { if case .attachment(let segment) = $0 { segment } else { nil } }
    }

    /// The images among the segments' attachments.
    package var images: [Transcript.ImageAttachment] {
        attachments.compactMap { if case .image(let image) = $0.content { image } else { nil } }
    }

    /// The data among the segments' attachments.
    package var dataAttachments: [Transcript.DataAttachment] {
        attachments.compactMap { if case .data(let data) = $0.content { data } else { nil } }
    }
}
