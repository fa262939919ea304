/// A piece of instructions or of a prompt: text, structured content, or (in a prompt) an
/// attachment.
enum PromptSegment: Sendable, Equatable {
    case text(String)
    case structure(GeneratedContent)
    case attachment(Transcript.AttachmentSegment)

    /// The segment as text: structured content as compact JSON; nothing for an attachment.
    var text: String {
        switch self {
        case .text(let text): text
        case .structure(let content): content.jsonString
        case .attachment: ""
        }
    }
}
