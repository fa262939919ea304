extension JSONValue: Codable {
    /// Decodes any JSON value. Object members come in the order the decoder lists its keys,
    /// which for most decoders is not the document's order.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: JSONKey.self) {
            var object = JSONObject()
            for key in keyed.allKeys {
                object.append(key: key.stringValue, value: try keyed.decode(JSONValue.self, forKey: key))
            }
            self = .object(object)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !unkeyed.isAtEnd {
                elements.append(try unkeyed.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? single.decode(Int.self) {
            self = .number(JSONNumber(integer))
        } else if let double = try? single.decode(Double.self), let number = JSONNumber(double) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value. Integers that fit in `Int` encode as `Int`, other numbers as `Double`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .number(let number):
            var single = encoder.singleValueContainer()
            if let integer = try? number.intValue() {
                try single.encode(integer)
            } else {
                try single.encode(try number.doubleValue())
            }
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements { try unkeyed.encode(element) }
        case .object(let object):
            var keyed = encoder.container(keyedBy: JSONKey.self)
            for member in object.members {
                try keyed.encode(member.value, forKey: JSONKey(member.key))
            }
        }
    }
}

/// A coding key for any member name: the keys of a ``JSONValue``'s objects when it is encoded or
/// decoded, and a convenient key for coding paths that name JSON members.
public struct JSONKey: CodingKey, Sendable, Hashable {
    public var stringValue: String
    public var intValue: Int? { nil }

    /// Creates the key of a member name.
    public init(_ string: String) {
        stringValue = string
    }

    public init?(stringValue: String) {
        self.stringValue = stringValue
    }

    public init?(intValue: Int) {
        stringValue = String(intValue)
    }
}
