/// A value that can be used as a prompt.
public protocol PromptRepresentable {
    /// The value as a prompt. (Implementations that are not builders write `return`.)
    @PromptBuilder var promptRepresentation: Prompt { get }
}

extension Prompt: PromptRepresentable {
    public var promptRepresentation: Prompt {
        return self
    }
}

extension String: PromptRepresentable {
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.text(self)])
    }
}

extension Array: PromptRepresentable where Element: PromptRepresentable {
    public var promptRepresentation: Prompt {
        return Prompt(segments: flatMap(\.promptRepresentation.segments))
    }
}
