/// The members of a JSON object, in document order.
///
/// RFC 8259 leaves duplicate names to the implementation. `JSONObject` keeps every member,
/// duplicates included, in the order they were written, so nothing of the document is lost and
/// serializing it writes the same members back. Looking a name up with ``subscript(_:)`` returns the
/// last member of that name, as JavaScript and `JSONSerialization` do.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One member of an object: a name and its value.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in document order, duplicates included.
    public var members: [Member]

    /// Creates an object from members in order.
    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// Creates an object from name-value pairs in order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Member { members[position] }

    /// The names in document order, duplicates included.
    public var keys: [String] { members.map(\.key) }

    /// Whether some member has a name that an earlier member already used.
    public var hasDuplicateKeys: Bool {
        var seen = Set<String>()
        return members.contains { !seen.insert($0.key).inserted }
    }

    /// The value of the last member named `key`, or `nil` when there is none.
    ///
    /// Setting a value replaces the last member of that name, or appends a member; setting `nil`
    /// removes every member of that name.
    public subscript(key: String) -> JSONValue? {
        get { members.last { $0.key == key }?.value }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = members.lastIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Appends a member, even when the name is already used.
    public mutating func append(key: String, value: JSONValue) {
        members.append(Member(key: key, value: value))
    }
}
