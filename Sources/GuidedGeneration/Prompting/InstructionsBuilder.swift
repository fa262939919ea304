/// Builds instructions from strings, representable values, conditionals, optionals and loops.
@resultBuilder
public struct InstructionsBuilder {
    public static func buildBlock<each Component: InstructionsRepresentable>(_ components: repeat each Component) -> Instructions {
        var segments: [PromptSegment] = []
        for component in repeat each components {
            segments += component.instructionsRepresentation.segments
        }
        return Instructions(segments: segments)
    }

    public static func buildArray(_ components: [some InstructionsRepresentable]) -> Instructions {
        Instructions(segments: components.flatMap(\.instructionsRepresentation.segments))
    }

    public static func buildEither(first component: some InstructionsRepresentable) -> Instructions {
        component.instructionsRepresentation
    }

    public static func buildEither(second component: some InstructionsRepresentable) -> Instructions {
        component.instructionsRepresentation
    }

    public static func buildOptional(_ component: Instructions?) -> Instructions {
        component ?? Instructions(segments: [])
    }

    public static func buildLimitedAvailability(_ component: some InstructionsRepresentable) -> Instructions {
        component.instructionsRepresentation
    }

    public static func buildExpression<Component: InstructionsRepresentable>(_ expression: Component) -> Component {
        expression
    }

    public static func buildExpression(_ expression: Instructions) -> Instructions {
        expression
    }
}
