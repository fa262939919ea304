/// Builds ``DynamicInstructions`` from instructions, tools, other dynamic instructions,
/// conditionals, optionals, loops and availability checks.
@resultBuilder
public struct DynamicInstructionsBuilder {
    public static func buildExpression<Content: DynamicInstructions>(_ content: Content) -> Content {
        content
    }

    /// A tool the model may call while these instructions are active.
    public static func buildExpression(_ tool: some Tool) -> ToolDynamicInstructions {
        ToolDynamicInstructions(tool)
    }

    public static func buildBlock() -> EmptyDynamicInstructions {
        EmptyDynamicInstructions()
    }

    public static func buildBlock<Content: DynamicInstructions>(_ content: Content) -> Content {
        content
    }

    public static func buildBlock<each Content: DynamicInstructions>(_ content: repeat each Content) -> TupleDynamicInstructions<repeat each Content> {
        TupleDynamicInstructions(repeat each content)
    }

    public static func buildOptional<Content: DynamicInstructions>(_ content: Content?) -> ConditionalDynamicInstructions<Content, EmptyDynamicInstructions> {
        content.map { ConditionalDynamicInstructions(.first($0)) } ?? ConditionalDynamicInstructions(.second(EmptyDynamicInstructions()))
    }

    public static func buildEither<First: DynamicInstructions, Second: DynamicInstructions>(first: First) -> ConditionalDynamicInstructions<First, Second> {
        ConditionalDynamicInstructions(.first(first))
    }

    public static func buildEither<First: DynamicInstructions, Second: DynamicInstructions>(second: Second) -> ConditionalDynamicInstructions<First, Second> {
        ConditionalDynamicInstructions(.second(second))
    }

    public static func buildArray<Content: DynamicInstructions>(_ content: [Content]) -> ArrayDynamicInstructions<Content> {
        ArrayDynamicInstructions(content)
    }

    public static func buildLimitedAvailability(_ content: some DynamicInstructions) -> AnyDynamicInstructions {
        AnyDynamicInstructions(content)
    }
}

/// No instructions and no tools.
public struct EmptyDynamicInstructions: DynamicInstructions, PrimitiveDynamicInstructions, Sendable {
    public init() {}
    public var body: EmptyDynamicInstructions { self }
    func resolve(into resolved: inout ResolvedInstructions) {}
}

/// A tool among dynamic instructions.
public struct ToolDynamicInstructions: DynamicInstructions, PrimitiveDynamicInstructions {
    let tool: any Tool

    public init(_ tool: some Tool) {
        self.tool = tool
    }

    public var body: EmptyDynamicInstructions { EmptyDynamicInstructions() }
    func resolve(into resolved: inout ResolvedInstructions) { resolved.tools.append(tool) }
}

/// Several dynamic instructions, one after another.
public struct TupleDynamicInstructions<each Content: DynamicInstructions>: DynamicInstructions, PrimitiveDynamicInstructions {
    let content: (repeat each Content)

    public init(_ content: repeat each Content) {
        self.content = (repeat each content)
    }

    public var body: EmptyDynamicInstructions { EmptyDynamicInstructions() }

    func resolve(into resolved: inout ResolvedInstructions) {
        for part in repeat each content {
            part.resolve(into: &resolved)
        }
    }
}

/// One of two dynamic instructions, as a condition chose.
public struct ConditionalDynamicInstructions<First: DynamicInstructions, Second: DynamicInstructions>: DynamicInstructions, PrimitiveDynamicInstructions {
    enum Choice {
        case first(First)
        case second(Second)
    }

    let choice: Choice

    init(_ choice: Choice) {
        self.choice = choice
    }

    public var body: EmptyDynamicInstructions { EmptyDynamicInstructions() }

    func resolve(into resolved: inout ResolvedInstructions) {
        switch choice {
        case .first(let first): first.resolve(into: &resolved)
        case .second(let second): second.resolve(into: &resolved)
        }
    }
}

/// Dynamic instructions from each pass of a loop.
public struct ArrayDynamicInstructions<Content: DynamicInstructions>: DynamicInstructions, PrimitiveDynamicInstructions {
    let content: [Content]

    init(_ content: [Content]) {
        self.content = content
    }

    public var body: EmptyDynamicInstructions { EmptyDynamicInstructions() }

    func resolve(into resolved: inout ResolvedInstructions) {
        for part in content { part.resolve(into: &resolved) }
    }
}

/// Dynamic instructions of any type.
public struct AnyDynamicInstructions: DynamicInstructions, PrimitiveDynamicInstructions {
    let content: any DynamicInstructions

    public init(_ content: any DynamicInstructions) {
        self.content = content
    }

    public init(erasing content: some DynamicInstructions) {
        self.content = content
    }

    public var body: EmptyDynamicInstructions { EmptyDynamicInstructions() }

    func resolve(into resolved: inout ResolvedInstructions) {
        content.resolve(into: &resolved)
    }
}
