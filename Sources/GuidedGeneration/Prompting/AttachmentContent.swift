/// A kind of content an ``Attachment`` holds: ``ImageAttachmentContent`` for images; values of
/// the app's are attached through ``DataAttachmentRepresentable``.
public protocol AttachmentContent {}
