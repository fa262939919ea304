/// The content of an image ``Attachment``. It is not made directly: use one of the
/// attachment's initializers (`Attachment(imageURL:)`, `Attachment(data:contentType:)`).
public struct ImageAttachmentContent: AttachmentContent, Sendable, Equatable {
    /// The image, as a transcript holds it.
    let image: Transcript.ImageAttachment
}
