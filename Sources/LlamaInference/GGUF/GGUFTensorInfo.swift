/// Where a tensor of a GGUF file lies, and its shape.
public struct GGUFTensorInfo: Sendable, Equatable {
    /// The tensor's name, e.g. `blk.0.attn_q.weight`.
    public let name: String
    /// The dimensions, innermost (contiguous) first, as GGUF stores them.
    public let dimensions: [Int]
    /// The element type.
    public let type: GGMLType
    /// The offset of the data from the start of the file.
    public let offset: Int
    /// The size of the data in bytes.
    public let byteCount: Int

    /// The number of elements.
    public var elementCount: Int { dimensions.reduce(1, *) }
}
