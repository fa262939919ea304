import Foundation

extension Transcript {
    /// A segment of the app's own kind: content that the app keeps in the transcript for a
    /// custom ``LanguageModel`` whose executor reads it (a video, a recording, a document
    /// reference). Declare a type for it and use its values in prompt and instructions builders:
    ///
    /// ```swift
    /// import Foundation
    /// import GuidedGeneration
    ///
    /// struct VideoSegment: Transcript.CustomSegment {
    ///     var id = UUID().uuidString
    ///     var content: URL
    /// }
    ///
    /// let prompt = Prompt {
    ///     "Summarize this video."
    ///     VideoSegment(content: URL(fileURLWithPath: "/tmp/talk.mp4"))
    /// }
    /// print(prompt)
    /// ```
    ///
    /// The models of this library do not read custom segments: the local model leaves them out
    /// of the conversation it renders, and a served model's request refuses them with
    /// ``LanguageModelError/unsupportedTranscriptContent(_:)``, as Apple's chat-completions model
    /// does. A transcript that is encoded and decoded again holds each as a
    /// ``StoredCustomSegment``, its content as ``GeneratedContent``.
    public protocol CustomSegment: InstructionsRepresentable, PromptRepresentable, CustomStringConvertible, Equatable, Identifiable, Sendable {
        /// The type of the content, which a transcript encodes as JSON.
        associatedtype Content: Codable & Equatable & Sendable

        /// The segment's identity.
        var id: String { get }

        /// The segment's content.
        var content: Content { get }
    }
}

extension Transcript.CustomSegment {
    /// The segment as a prompt of one segment.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.custom(self)])
    }

    /// The segment as instructions of one segment.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.custom(self)])
    }

    /// The content as text: content that encodes as a JSON string (a `String`, a `URL`, a
    /// string enum) as that string, any other as compact JSON (its type's name when it cannot
    /// be encoded).
    public var description: String {
        guard let json = try? Self.jsonText(of: content) else { return String(describing: Content.self) }
        if case .string(let text) = (try? GeneratedContent(json: json))?.kind { return text }
        return json
    }

    /// Whether `other` is a segment of the same type and equal to this one.
    public func isEqual(to other: some Transcript.CustomSegment) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }

    /// `content` as compact JSON text, keys sorted so that equal content gives equal text.
    /// - Throws: What `JSONEncoder` throws for content it cannot encode.
    static func jsonText(of content: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(content), as: UTF8.self)
    }
}
