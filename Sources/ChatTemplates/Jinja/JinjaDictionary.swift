/// A dictionary of template values that keeps its keys in insertion order, as Python's does, and
/// finds them by Python's equality of keys (`1`, `1.0` and `true` are one key).
public struct JinjaDictionary: Sendable, Equatable {
    /// The keys, in insertion order.
    public private(set) var keys: [JinjaValue] = []
    /// The values, in the order of their keys.
    public private(set) var values: [JinjaValue] = []
    private var positions: [Key: Int] = [:]

    /// What a key is hashed by: Python's equality of hashable values.
    enum Key: Hashable {
        case none, undefined, integer(Int), double(UInt64), string(String)

        /// The key of `value`, or `nil` when the value cannot be a key (lists, dictionaries).
        init?(_ value: JinjaValue) {
            switch value {
            case .none: self = .none
            case .undefined: self = .undefined
            case .boolean(let flag): self = .integer(flag ? 1 : 0)
            case .integer(let integer): self = .integer(integer)
            case .double(let double):
                if let integer = Int(exactly: double) { self = .integer(integer) } else { self = .double(double.bitPattern) }
            case .string(let string): self = .string(string)
            case .array, .dictionary, .namespace, .callable: return nil
            }
        }
    }

    /// An empty dictionary.
    public init() {}

    /// A dictionary of `pairs` with string keys, in their order; a repeated key keeps its first
    /// place and its last value.
    public init(_ pairs: [(String, JinjaValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    /// How many keys it has.
    public var count: Int { keys.count }

    /// The pairs, in insertion order.
    public var pairs: Zip2Sequence<[JinjaValue], [JinjaValue]> { zip(keys, values) }

    /// The value of the string `key`.
    public subscript(key: String) -> JinjaValue? {
        get { positions[.string(key)].map { values[$0] } }
        set {
            if let newValue {
                _ = setValue(newValue, for: .string(key))
            } else if let position = positions[.string(key)] {
                keys.remove(at: position)
                values.remove(at: position)
                positions = [:]
                for (index, key) in keys.enumerated() { if let hashed = Key(key) { positions[hashed] = index } }
            }
        }
    }

    /// The value of `key`, found by Python's equality.
    func value(for key: JinjaValue) -> JinjaValue? {
        guard let hashed = Key(key), let position = positions[hashed] else { return nil }
        return values[position]
    }

    /// Whether `key` is a key.
    func contains(_ key: JinjaValue) -> Bool {
        value(for: key) != nil
    }

    /// Sets the value of `key`; `false` when the key is not hashable.
    mutating func setValue(_ value: JinjaValue, for key: JinjaValue) -> Bool {
        guard let hashed = Key(key) else { return false }
        if let position = positions[hashed] {
            values[position] = value
        } else {
            positions[hashed] = keys.count
            keys.append(key)
            values.append(value)
        }
        return true
    }

    /// Equal when they hold the same keys with equal values, in any order, as in Python.
    public static func == (left: JinjaDictionary, right: JinjaDictionary) -> Bool {
        guard left.count == right.count else { return false }
        for (key, value) in left.pairs {
            guard right.value(for: key) == value else { return false }
        }
        return true
    }
}
