/// What a tool returns, as the first releases of the tool API spelled it: text or generated
/// content. Return any ``PromptRepresentable`` value (a `String`, a `Generable` value) instead.
@available(*, deprecated, message: "Return a String or any other PromptRepresentable value from call(arguments:).")
public struct ToolOutput: Sendable, PromptRepresentable {
    private let segment: PromptSegment

    /// Output given as text.
    public init(_ string: String) {
        segment = .text(string)
    }

    /// Output given as generated content (shown to the model as JSON).
    public init(_ content: GeneratedContent) {
        segment = .structure(content)
    }

    public var promptRepresentation: Prompt {
        return Prompt(segments: [segment])
    }
}
