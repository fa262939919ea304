/// The text of a prompt: what the model is asked, one per request. Made from strings,
/// generable values (as structured content) and other PromptRepresentable values, or with
/// a `@PromptBuilder` closure.
public struct Prompt: Sendable, CustomStringConvertible {
    let segments: [PromptSegment]

    init(segments: [PromptSegment]) {
        self.segments = segments
    }

    /// Creates prompt from a representable value.
    public init(_ content: some PromptRepresentable) {
        self = content.promptRepresentation
    }

    /// Creates prompt from a builder closure.
    public init(@PromptBuilder _ content: () throws -> Prompt) rethrows {
        self = try content()
    }

    /// The text: the pieces in order, one per line, structured content as compact JSON.
    public var description: String {
        segments.map(\.text).joined(separator: "\n")
    }
}
