import PartialJSON

/// One schema as this library understands JSON Schema: the form that Swift types, dynamic
/// schemas and JSON Schema files all become, and that encodes back to JSON Schema.
struct SchemaNode: Sendable {
    /// The name of the type the schema describes (`title` in JSON Schema).
    var title: String?
    /// What the value means (`description`).
    var description: String?
    /// What the value may be.
    var kind: Kind

    init(title: String? = nil, description: String? = nil, _ kind: Kind) {
        self.title = title
        self.description = description
        self.kind = kind
    }

    indirect enum Kind: Sendable {
        /// An object with these properties in this order; `additionalProperties` as written
        /// (`nil` when absent).
        case object(properties: [SchemaProperty], additionalProperties: Bool?)
        case string(StringConstraints)
        case integer(NumberConstraints)
        case number(NumberConstraints)
        case boolean
        case null
        case array(items: SchemaNode?, minItems: Int?, maxItems: Int?)
        /// One of several schemas.
        case anyOf([SchemaNode])
        /// One of these values (`enum` without `type`).
        case enumeration([JSONValue])
        /// Exactly this value (`const` without `type`).
        case constant(JSONValue)
        /// The definition of this name; the empty name is the root.
        case reference(String)
        /// Any JSON value (`{}` or `true`).
        case anything
        /// A whole JSON Schema document kept as written: one this form cannot express (another
        /// draft, `oneOf`, `patternProperties`, ...) but that the decoding engine compiles itself.
        case document(JSONValue)
        /// No value at all (`false`).
        case nothing
        /// The schema of a Swift type with guides applied, resolved when the schema is encoded
        /// (so that recursive types are possible).
        case generable(any Generable.Type, guides: [GuideConstraint])
    }
}

/// A property of an object schema.
struct SchemaProperty: Sendable {
    var name: String
    var schema: SchemaNode
    var isOptional: Bool
}

/// What a string may be.
struct StringConstraints: Sendable, Equatable {
    var pattern: String?
    var choices: [String]?
    var constant: String?
}

/// The bounds of a number or integer, exact as written.
struct NumberConstraints: Sendable, Equatable {
    var minimum: JSONNumber?
    var maximum: JSONNumber?
    var exclusiveMinimum: JSONNumber?
    var exclusiveMaximum: JSONNumber?
}
