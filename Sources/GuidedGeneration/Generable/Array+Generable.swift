extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
    /// Creates an array from array content, converting each element.
    public init(_ content: GeneratedContent) throws {
        guard case .array(let elements) = content.kind else { throw content.mismatch(expected: "an array", type: Self.self) }
        self = try elements.enumerated().map { index, element in
            do {
                return try Element(element)
            } catch let error as DecodingError {
                throw error.nested(in: "[\(index)]")
            }
        }
    }
}

extension Array: ConvertibleToGeneratedContent where Element: ConvertibleToGeneratedContent {
    public var generatedContent: GeneratedContent {
        GeneratedContent(kind: .array(map(\.generatedContent)))
    }
}

extension Array: Generable where Element: Generable {
    /// While being generated, an array holds the elements generated so far, each partial.
    public typealias PartiallyGenerated = [Element.PartiallyGenerated]

    /// An array of elements of `Element`'s schema.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(root: SchemaNode(.array(items: SchemaNode(.generable(Element.self, guides: [])), minItems: nil, maxItems: nil)))
    }
}
