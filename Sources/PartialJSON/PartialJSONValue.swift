/// A JSON value as far as it has been written, each node marked complete or not.
///
/// This is the `Sendable` copy of a ``JSONSnapshot``.
public struct PartialJSONValue: Sendable, Hashable {
    /// The value and its contents.
    public indirect enum Kind: Sendable, Hashable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        /// The string as written so far.
        case string(String)
        /// The elements that have begun.
        case array([PartialJSONValue])
        /// The members whose values have begun, in order.
        case object([Member])
    }

    /// A member of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: PartialJSONValue

        public init(key: String, value: PartialJSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value and its contents.
    public var kind: Kind
    /// Whether this value is complete (closed, for strings, arrays and objects).
    public var isComplete: Bool

    /// Creates a value.
    public init(kind: Kind, isComplete: Bool) {
        self.kind = kind
        self.isComplete = isComplete
    }

    /// The value with what is there so far, as if every open string, array and object were closed.
    public var value: JSONValue {
        switch kind {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value): .number(value)
        case .string(let value): .string(value)
        case .array(let elements): .array(elements.map(\.value))
        case .object(let members): .object(JSONObject(members.map { JSONObject.Member(key: $0.key, value: $0.value.value) }))
        }
    }

    /// Whether `later` could be a later snapshot of the same document: it has everything this
    /// value has, what was complete is unchanged, and what was open has only grown.
    public func isExtended(by later: PartialJSONValue) -> Bool {
        if isComplete { return later == self }
        switch (kind, later.kind) {
        case (.string(let text), .string(let laterText)):
            return laterText.utf8.starts(with: text.utf8)
        case (.array(let elements), .array(let laterElements)):
            return Self.prefixes(elements, laterElements, by: { $0.isExtended(by: $1) })
        case (.object(let members), .object(let laterMembers)):
            return Self.prefixes(members, laterMembers) { $0.key == $1.key && $0.value.isExtended(by: $1.value) }
        default:
            return false
        }
    }

    private static func prefixes<Element>(
        _ earlier: [Element], _ later: [Element], by extends: (Element, Element) -> Bool
    ) -> Bool {
        earlier.count <= later.count && zip(earlier, later).allSatisfy(extends)
    }
}
