/// The text of instructions: how the model should behave, set once per session. Made from strings,
/// generable values (as structured content) and other InstructionsRepresentable values, or with
/// a `@InstructionsBuilder` closure.
public struct Instructions: Sendable, CustomStringConvertible {
    let segments: [PromptSegment]

    init(segments: [PromptSegment]) {
        self.segments = segments
    }

    /// Creates instructions from a representable value.
    public init(_ content: some InstructionsRepresentable) {
        self = content.instructionsRepresentation
    }

    /// Creates instructions from a builder closure.
    public init(@InstructionsBuilder _ content: () throws -> Instructions) rethrows {
        self = try content()
    }

    /// The text: the pieces in order, one per line, structured content as compact JSON.
    public var description: String {
        segments.map(\.text).joined(separator: "\n")
    }
}
