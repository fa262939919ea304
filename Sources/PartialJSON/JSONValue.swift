/// A JSON value that keeps the order of object members.
///
/// Numbers are kept exactly as written (see ``JSONNumber``); objects keep their members in
/// document order, duplicates included (see ``JSONObject``).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its source text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// An object, with its members in document order.
    case object(JSONObject)

    /// Parses a complete JSON document.
    ///
    /// - Throws: ``JSONParseError`` when the text is not one complete JSON value.
    public init(parsing text: String, maximumDepth: Int = PartialJSONParser.defaultMaximumDepth) throws(JSONParseError) {
        let parser = PartialJSONParser(maximumDepth: maximumDepth)
        try parser.feed(text)
        self = try parser.finish()
    }

    /// Parses a complete JSON document from UTF-8 bytes.
    ///
    /// - Throws: ``JSONParseError`` when the bytes are not one complete JSON value.
    public init(parsing bytes: some Sequence<UInt8>, maximumDepth: Int = PartialJSONParser.defaultMaximumDepth) throws(JSONParseError) {
        let parser = PartialJSONParser(maximumDepth: maximumDepth)
        try parser.feed(bytes)
        self = try parser.finish()
    }

    /// Parses a complete JSON document from raw UTF-8 bytes.
    ///
    /// - Throws: ``JSONParseError`` when the bytes are not one complete JSON value.
    public init(parsing bytes: UnsafeRawBufferPointer, maximumDepth: Int = PartialJSONParser.defaultMaximumDepth) throws(JSONParseError) {
        let parser = PartialJSONParser(maximumDepth: maximumDepth)
        try parser.feed(bytes)
        self = try parser.finish()
    }
}

extension JSONValue {
    /// The string, when this value is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean, when this value is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, when this value is a number.
    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The elements, when this value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, when this value is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value of the last member named `key`, when this value is an object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The value with the members of each of its objects in key order: two values that differ
    /// only in the order of keys (which JSON gives no meaning) become equal.
    public func sortingKeys() -> JSONValue {
        switch self {
        case .object(let object):
            .object(JSONObject(object.members.map { JSONObject.Member(key: $0.key, value: $0.value.sortingKeys()) }.sorted { $0.key < $1.key }))
        case .array(let elements): .array(elements.map { $0.sortingKeys() })
        default: self
        }
    }
}
