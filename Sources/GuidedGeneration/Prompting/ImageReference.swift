/// A reference to an image of a session's transcript, by the label it was attached with
/// (``Attachment/label(_:)``): a `Generable` value, so that a tool can take one among its
/// arguments, the model naming the image, and find the image in the session's transcript.
///
/// ```swift
/// import GuidedGeneration
///
/// struct DescribeImage: Tool {
///     let description = "Describes one of the images of the conversation."
///     @SessionProperty(\.history) var history
///
///     @Generable
///     struct Arguments {
///         var image: ImageReference
///     }
///
///     func call(arguments: Arguments) async throws -> String {
///         let image = arguments.image.resolve(in: Transcript(entries: history))
///         return image?.url?.lastPathComponent ?? "No image is labelled \(arguments.image.attachmentLabel)."
///     }
/// }
/// ```
public struct ImageReference: Sendable, Equatable, Generable {
    /// The label of the referenced image.
    public let attachmentLabel: String

    init(attachmentLabel: String) {
        self.attachmentLabel = attachmentLabel
    }

    /// The image attached with ``attachmentLabel`` in `transcript` (the latest, when several
    /// are), or `nil` when none is.
    public func resolve(in transcript: Transcript) -> Transcript.ImageAttachment? {
        for entry in transcript.reversed() {
            for case .attachment(let attachment) in entry.segments.reversed() where attachment.label == attachmentLabel {
                if case .image(let image) = attachment.content { return image }
            }
        }
        return nil
    }

    /// An object with the label, a string.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Self.self, description: "An image attached to the conversation, named by its label.",
            properties: [GenerationSchema.Property(name: "attachmentLabel", description: "The label of the image.", type: String.self)])
    }

    /// Reads a reference from an object with its label.
    /// - Throws: `DecodingError` when the content is not an object with a string label.
    public init(_ content: GeneratedContent) throws {
        attachmentLabel = try content.value(forProperty: "attachmentLabel")
    }

    /// The reference as an object with its label.
    public var generatedContent: GeneratedContent {
        GeneratedContent(properties: ["attachmentLabel": attachmentLabel])
    }

    /// A reference while it is generated: its label so far.
    public struct PartiallyGenerated: Identifiable, ConvertibleFromGeneratedContent, Equatable, Sendable {
        /// The identity of the value being generated, the same in each snapshot.
        public var id: GenerationID
        /// The label so far, once the model has begun it.
        public var attachmentLabel: String.PartiallyGenerated?

        /// Reads the label written so far.
        public init(_ content: GeneratedContent) throws {
            id = content.id ?? GenerationID()
            attachmentLabel = try content.value(String?.self, forProperty: "attachmentLabel")
        }
    }
}
