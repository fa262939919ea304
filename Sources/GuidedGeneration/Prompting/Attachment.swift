import Foundation

/// Media given to the model beside the text of a prompt or of instructions, an image for now,
/// with an optional label that lets the model tell several apart (in tool calls, say):
///
/// ```swift
/// import Foundation
/// import GuidedGeneration
///
/// let prompt = Prompt {
///     "Compare these two images:"
///     Attachment(imageURL: URL(fileURLWithPath: "/tmp/first.png")).label("image-0")
///     Attachment(imageURL: URL(fileURLWithPath: "/tmp/second.png")).label("image-1")
/// }
/// print(prompt)
/// ```
///
/// Only a model that reads images (``LanguageModelCapabilities/Capability/vision``) is asked
/// with one; a session refuses it for any other model with
/// ``LanguageModelError/unsupportedCapability(_:)`` before the model is asked.
public struct Attachment<Content: AttachmentContent> {
    /// What is attached.
    let content: Content
    /// The name the model knows it by, if any.
    let name: String?

    /// Assigns a label to the attachment, which helps the model tell attachments apart.
    public func label(_ label: String) -> Attachment<Content> {
        Attachment(content: content, name: label)
    }
}

extension Attachment: Sendable where Content: Sendable {}

extension Attachment where Content == ImageAttachmentContent {
    /// An image in a file, on a server or in a `data:` URL. (Apple's `orientation:` parameter
    /// takes an ImageIO type, which this platform does not have.)
    public init(imageURL: URL) {
        self.init(content: ImageAttachmentContent(image: Transcript.ImageAttachment(imageURL: imageURL)), name: nil)
    }

    /// An image from its encoded bytes and their content type (`image/png`, `image/jpeg`, ...).
    public init(data: Data, contentType: String) {
        self.init(content: ImageAttachmentContent(image: Transcript.ImageAttachment(data: data, contentType: contentType)), name: nil)
    }

    /// The attachment as a transcript segment.
    var segment: Transcript.AttachmentSegment {
        Transcript.AttachmentSegment(content: .image(content.image), label: name)
    }
}

extension Attachment: PromptRepresentable, InstructionsRepresentable where Content == ImageAttachmentContent {
    /// The image as a prompt of one attachment.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.attachment(segment)])
    }

    /// The image as instructions of one attachment.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.attachment(segment)])
    }
}
