/// A piece of instructions or of a prompt: text, or structured content.
enum PromptSegment: Sendable, Equatable {
    case text(String)
    case structure(GeneratedContent)

    /// The segment as text: structured content as compact JSON.
    var text: String {
        switch self {
        case .text(let text): text
        case .structure(let content): content.jsonString
        }
    }
}
