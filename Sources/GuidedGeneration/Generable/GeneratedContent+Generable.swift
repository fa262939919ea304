extension GeneratedContent: Generable {
    /// Any JSON value.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(root: SchemaNode(.anything))
    }

    /// The content itself.
    public init(_ content: GeneratedContent) throws {
        self = content
    }

    public var generatedContent: GeneratedContent { self }
}
