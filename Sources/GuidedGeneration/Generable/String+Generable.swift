extension String: Generable {
    /// Any string.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(root: SchemaNode(.string(StringConstraints())))
    }

    /// Creates a string from string content, complete or still being written.
    public init(_ content: GeneratedContent) throws {
        guard case .string(let text) = content.kind else { throw content.mismatch(expected: "a string", type: String.self) }
        self = text
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .string(self)) }
}
