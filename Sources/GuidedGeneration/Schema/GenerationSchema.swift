import ConstrainedDecoding
import PartialJSON

/// What a model may generate for a type: its properties in declaration order, their types and
/// their guides, or its choices.
///
/// A schema encodes to standard JSON Schema (Draft 2020-12) with ``jsonSchema()``, and one can be
/// read from JSON Schema with ``init(jsonSchema:)-(JSONValue)``; `Codable` goes through the
/// same form (adding `x-order` so that property order survives any encoder).
public struct GenerationSchema: Sendable, CustomDebugStringConvertible {
    /// The schema of the value itself.
    var root: SchemaNode
    /// Named schemas the root refers to, in order.
    var definitions: [(name: String, node: SchemaNode)]
    /// The Swift type the schema belongs to, so that a reference back to it points at the root.
    var rootType: ObjectIdentifier?
    /// Whether the schema was read leniently (``init(jsonSchema:lenient:)``).
    public internal(set) var isLenient = false
    /// For a document the engine reads itself (``SchemaNode/Kind/document(_:)``), the grammar
    /// compiled when it was read, in the layout of local models' answers: reading it is
    /// compiling it, and a session answering in that layout compiles nothing again.
    var compiledDocument: CompiledGrammar?

    init(root: SchemaNode, definitions: [(name: String, node: SchemaNode)] = [], rootType: ObjectIdentifier? = nil) {
        self.root = root
        self.definitions = definitions
        self.rootType = rootType
    }

    /// Creates the schema of a structure: its properties, in order.
    public init(type: any Generable.Type, description: String? = nil, properties: [Property]) {
        let properties = properties.map { SchemaProperty(name: $0.name, schema: $0.schema, isOptional: $0.isOptional) }
        self.init(
            root: SchemaNode(title: Self.name(of: type), description: description, .object(properties: properties, additionalProperties: false)),
            rootType: ObjectIdentifier(type))
    }

    /// Creates the schema of a type whose values are one of a set of strings, such as an
    /// enumeration without payloads.
    public init(type: any Generable.Type, description: String? = nil, anyOf choices: [String]) {
        self.init(
            root: SchemaNode(title: Self.name(of: type), description: description, .string(StringConstraints(choices: choices))),
            rootType: ObjectIdentifier(type))
    }

    /// Creates the schema of a type whose values are one of several types, such as an
    /// enumeration with payloads.
    public init(type: any Generable.Type, description: String? = nil, anyOf types: [any Generable.Type]) {
        self.init(
            root: SchemaNode(title: Self.name(of: type), description: description, .anyOf(types.map { SchemaNode(.generable($0, guides: [])) })),
            rootType: ObjectIdentifier(type))
    }

    /// The name of the type the schema describes, if it has one (its `title` in JSON Schema).
    var typeName: String? { root.title }

    /// The schema's name: the name of the type it describes (a Swift type's, a dynamic schema's,
    /// a JSON Schema document's `title`), else `response`. Served models receive it as the
    /// name of the response format.
    public var name: String { typeName ?? "response" }

    static func name(of type: any Generable.Type) -> String {
        String(describing: type)
    }

    public var debugDescription: String {
        do {
            return try jsonSchemaString()
        } catch {
            return "GenerationSchema (invalid: \(error))"
        }
    }
}
