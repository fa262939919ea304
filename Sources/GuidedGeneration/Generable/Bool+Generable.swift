extension Bool: Generable {
    /// `true` or `false`.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(root: SchemaNode(.boolean))
    }

    /// Creates a Boolean from Boolean content.
    public init(_ content: GeneratedContent) throws {
        guard case .bool(let flag) = content.kind else { throw content.mismatch(expected: "a Boolean", type: Bool.self) }
        self = flag
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .bool(self)) }
}
