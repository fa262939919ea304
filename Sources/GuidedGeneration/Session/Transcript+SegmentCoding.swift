extension Transcript.Segment {
    /// Segments are equal when they are of the same case with equal content; custom segments
    /// when they are of the same type and equal.
    public static func == (lhs: Transcript.Segment, rhs: Transcript.Segment) -> Bool {
        switch (lhs, rhs) {
        case (.text(let left), .text(let right)): left == right
        case (.structure(let left), .structure(let right)): left == right
        case (.attachment(let left), .attachment(let right)): left == right
        case (.custom(let left), .custom(let right)): left.isEqual(to: right)
        default: false
        }
    }

    private enum CodingKeys: String, CodingKey {
        case text, structure, attachment, custom
    }

    /// The key of a case's one value: the layout Swift gives an enum's coding, so that
    /// transcripts saved before custom segments existed read as they did.
    private enum ValueKeys: String, CodingKey {
        case value = "_0"
    }

    /// Decodes a segment; a custom segment becomes a ``Transcript/StoredCustomSegment``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath, debugDescription: "A segment has exactly one of the keys text, structure, attachment and custom."))
        }
        let value = try container.nestedContainer(keyedBy: ValueKeys.self, forKey: key)
        switch key {
        case .text: self = .text(try value.decode(Transcript.TextSegment.self, forKey: .value))
        case .structure: self = .structure(try value.decode(Transcript.StructuredSegment.self, forKey: .value))
        case .attachment: self = .attachment(try value.decode(Transcript.AttachmentSegment.self, forKey: .value))
        case .custom: self = .custom(try value.decode(Transcript.StoredCustomSegment.self, forKey: .value))
        }
    }

    /// Encodes a segment; a custom segment's content is encoded as JSON.
    /// - Throws: `EncodingError` when a custom segment's content cannot be encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func put(_ segment: some Encodable, as key: CodingKeys) throws {
            var value = container.nestedContainer(keyedBy: ValueKeys.self, forKey: key)
            try value.encode(segment, forKey: .value)
        }
        switch self {
        case .text(let segment): try put(segment, as: .text)
        case .structure(let segment): try put(segment, as: .structure)
        case .attachment(let segment): try put(segment, as: .attachment)
        case .custom(let segment): try put(try Transcript.StoredCustomSegment(segment), as: .custom)
        }
    }
}
