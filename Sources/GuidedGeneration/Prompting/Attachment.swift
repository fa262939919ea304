import Foundation

/// Media given to the model beside the text of a prompt or of instructions: an image, or a value
/// of the app's as data of a content type (``DataAttachmentRepresentable``), with an optional
/// label that lets the model tell several apart (in tool calls, say):
///
/// ```swift
/// import Foundation
/// import GuidedGeneration
///
/// let prompt = Prompt {
///     "Compare these two images:"
///     Attachment(imageURL: URL(fileURLWithPath: "/tmp/first.png")).label("image-0")
///     Attachment(imageURL: URL(fileURLWithPath: "/tmp/second.jpg"), orientation: .right).label("image-1")
/// }
/// print(prompt)
/// ```
///
/// Only a model that reads images (``LanguageModelCapabilities/Capability/vision``) is asked
/// with one, and only a model that accepts a data type (``LanguageModel/supportsDataAttachmentType(_:)``)
/// with data of it; a session refuses them for any other model before the model is asked.
public struct Attachment<Content> {
    /// What is attached.
    let content: Content
    /// The attachment as a transcript holds it.
    let attachment: Transcript.Attachment
    /// The name the model knows it by, if any.
    let name: String?

    /// Assigns a label to the attachment, which helps the model tell attachments apart.
    public func label(_ label: String) -> Attachment<Content> {
        Attachment(content: content, attachment: attachment, name: label)
    }

    /// The attachment as a transcript segment.
    var segment: Transcript.AttachmentSegment {
        Transcript.AttachmentSegment(content: attachment, label: name)
    }
}

extension Attachment: Sendable where Content: Sendable {}

extension Attachment where Content == ImageAttachmentContent {
    /// An image in a file, on a server or in a `data:` URL, shown in `orientation` (`nil` for
    /// the orientation the image records).
    public init(imageURL: URL, orientation: CGImagePropertyOrientation? = nil) {
        self.init(image: Transcript.ImageAttachment(imageURL: imageURL, orientation: orientation))
    }

    /// An image from its encoded bytes and their MIME type (`image/png`, `image/jpeg`, ...),
    /// shown in `orientation` (`nil` for the orientation the image records).
    public init(data: Data, contentType: String, orientation: CGImagePropertyOrientation? = nil) {
        self.init(image: Transcript.ImageAttachment(data: data, contentType: contentType, orientation: orientation))
    }

    /// An image from its encoded bytes and their content type (``UTType/png``, ``UTType/jpeg``,
    /// ...), shown in `orientation` (`nil` for the orientation the image records).
    public init(data: Data, contentType: UTType, orientation: CGImagePropertyOrientation? = nil) {
        self.init(image: Transcript.ImageAttachment(data: data, contentType: contentType, orientation: orientation))
    }

    private init(image: Transcript.ImageAttachment) {
        self.init(content: ImageAttachmentContent(image: image), attachment: .image(image), name: nil)
    }
}

extension Attachment where Content: DataAttachmentRepresentable {
    /// A value of the app's, attached as data of its content type.
    public init(_ content: Content) {
        self.init(content: content, attachment: .data(content.transcriptRepresentation), name: nil)
    }
}

extension Attachment: PromptRepresentable, InstructionsRepresentable {
    /// The attachment as a prompt of one attachment.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.attachment(segment)])
    }

    /// The attachment as instructions of one attachment.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.attachment(segment)])
    }
}
