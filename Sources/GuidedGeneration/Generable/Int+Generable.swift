extension Int: Generable {
    /// Any integer.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(root: SchemaNode(.integer(NumberConstraints())))
    }

    /// Creates an integer from number content that is a whole number within `Int`'s range.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let number) = content.kind else { throw content.mismatch(expected: "an integer", type: Int.self) }
        guard let value = Int(exactly: number) else {
            throw content.mismatch(expected: "an integer within the range of Int", type: Int.self)
        }
        self = value
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}
