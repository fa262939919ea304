extension Optional: ConvertibleFromGeneratedContent where Wrapped: ConvertibleFromGeneratedContent {
    /// Creates `nil` from null content, and the wrapped value from anything else.
    public init(_ content: GeneratedContent) throws {
        if case .null = content.kind {
            self = nil
        } else {
            self = try Wrapped(content)
        }
    }
}

extension Optional: ConvertibleToGeneratedContent, InstructionsRepresentable, PromptRepresentable
where Wrapped: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent {
        self?.generatedContent ?? GeneratedContent(kind: .null)
    }
}

extension Optional: Generable where Wrapped: Generable {
    /// While being generated, an optional is its wrapped type's partial form.
    public typealias PartiallyGenerated = Wrapped.PartiallyGenerated

    /// The wrapped type's schema, or `null`. (A property of an optional type is instead left
    /// out of `required`.)
    public static var generationSchema: GenerationSchema {
        GenerationSchema(root: SchemaNode(.anyOf([SchemaNode(.generable(Wrapped.self, guides: [])), SchemaNode(.null)])))
    }
}
