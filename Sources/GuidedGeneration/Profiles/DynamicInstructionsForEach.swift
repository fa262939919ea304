/// Dynamic instructions for each element of a collection, each identified by `id`.
public struct DynamicInstructionsForEach<Data: RandomAccessCollection, ID: Hashable, Content: DynamicInstructions>: DynamicInstructions,
    PrimitiveDynamicInstructions
{
    /// The elements.
    public let data: Data
    let identifier: KeyPath<Data.Element, ID>
    let content: (Data.Element) -> Content

    /// Dynamic instructions for each element of `data`, identified by `id`.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        identifier = id
        self.content = content
    }

    public var body: EmptyDynamicInstructions { EmptyDynamicInstructions() }

    func resolve(into resolved: inout ResolvedInstructions) {
        for element in data { content(element).resolve(into: &resolved) }
    }
}

extension DynamicInstructionsForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// Dynamic instructions for each element of `data`, identified by its `id`.
    public init(_ data: Data, @DynamicInstructionsBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}
