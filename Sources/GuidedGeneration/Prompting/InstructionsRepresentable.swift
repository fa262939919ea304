/// A value that can be used as instructions.
public protocol InstructionsRepresentable {
    /// The value as instructions. (Implementations that are not builders write `return`.)
    @InstructionsBuilder var instructionsRepresentation: Instructions { get }
}

extension Instructions: InstructionsRepresentable {
    public var instructionsRepresentation: Instructions {
        return self
    }
}

extension String: InstructionsRepresentable {
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: [.text(self)])
    }
}

extension Array: InstructionsRepresentable where Element: InstructionsRepresentable {
    public var instructionsRepresentation: Instructions {
        return Instructions(segments: flatMap(\.instructionsRepresentation.segments))
    }
}
