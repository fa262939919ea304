extension Never: Generable {
    /// No value at all.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(root: SchemaNode(.nothing))
    }

    /// Always throws: there is no value of `Never`.
    public init(_ content: GeneratedContent) throws {
        throw content.mismatch(expected: "nothing (Never has no values)", type: Never.self)
    }

    public var generatedContent: GeneratedContent {
        switch self {}
    }
}
