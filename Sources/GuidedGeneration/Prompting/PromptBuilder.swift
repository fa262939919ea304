/// Builds prompt from strings, representable values, conditionals, optionals and loops.
@resultBuilder
public struct PromptBuilder {
    public static func buildBlock<each Component: PromptRepresentable>(_ components: repeat each Component) -> Prompt {
        var segments: [PromptSegment] = []
        for component in repeat each components {
            segments += component.promptRepresentation.segments
        }
        return Prompt(segments: segments)
    }

    public static func buildArray(_ components: [some PromptRepresentable]) -> Prompt {
        Prompt(segments: components.flatMap(\.promptRepresentation.segments))
    }

    public static func buildEither(first component: some PromptRepresentable) -> Prompt {
        component.promptRepresentation
    }

    public static func buildEither(second component: some PromptRepresentable) -> Prompt {
        component.promptRepresentation
    }

    public static func buildOptional(_ component: Prompt?) -> Prompt {
        component ?? Prompt(segments: [])
    }

    public static func buildLimitedAvailability(_ component: some PromptRepresentable) -> Prompt {
        component.promptRepresentation
    }

    public static func buildExpression<Component: PromptRepresentable>(_ expression: Component) -> Component {
        expression
    }

    public static func buildExpression(_ expression: Prompt) -> Prompt {
        expression
    }
}
