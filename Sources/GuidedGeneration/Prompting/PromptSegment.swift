/// A piece of instructions or of a prompt: text, structured content, an attachment, or a
/// custom segment of the app's.
enum PromptSegment: Sendable {
    case text(String)
    case structure(GeneratedContent)
    case attachment(Transcript.AttachmentSegment)
    case custom(any Transcript.CustomSegment)

    /// The segment as text: structured content as compact JSON; nothing for an attachment or a
    /// custom segment.
    var text: String {
        switch self {
        case .text(let text): text
        case .structure(let content): content.jsonString
        case .attachment, .custom: ""
        }
    }
}
