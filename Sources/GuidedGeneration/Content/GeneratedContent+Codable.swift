import PartialJSON

/// Content encodes as the JSON value it stands for, properties in order.
extension GeneratedContent: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(complete: JSONValue(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
