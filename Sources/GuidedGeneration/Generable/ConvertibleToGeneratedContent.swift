/// A type that can be written as generated content, and so used in prompts and instructions.
public protocol ConvertibleToGeneratedContent: InstructionsRepresentable, PromptRepresentable {
    /// The value as generated content.
    var generatedContent: GeneratedContent { get }
}

extension ConvertibleToGeneratedContent {
    /// The value as instructions: its generated content, as structured text.
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.structure(generatedContent)])
    }

    /// The value as a prompt: its generated content, as structured text.
    public var promptRepresentation: Prompt {
        return Prompt(segments: [.structure(generatedContent)])
    }
}
