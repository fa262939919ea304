/// A kind of content an ``Attachment`` holds; ``ImageAttachmentContent`` is the one there is.
public protocol AttachmentContent {}
