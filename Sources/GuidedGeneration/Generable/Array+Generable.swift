extension Array: ConvertibleFromGeneratedContent where Element: ConvertibleFromGeneratedContent {
    /// Creates an array from array content, converting each element. An element still being
    /// written that cannot be converted yet (an enumeration case half written, say) is left
    /// out, so that the array of a snapshot holds the elements converted so far.
    public init(_ content: GeneratedContent) throws {
        guard case .array(let elements) = content.kind else { throw content.mismatch(expected: "an array", type: Self.self) }
        self = []
        reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                append(try Element(element))
            } catch where !element.isComplete {
                break
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
