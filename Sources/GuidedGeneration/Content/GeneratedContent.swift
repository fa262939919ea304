/// Structured content a model generated, or that a value converts to: null, a Boolean, a
/// number, a string, an array, or a structure whose properties keep their order.
///
/// Content made from a partial JSON text (see ``init(json:)``) says, at every level, whether
/// it is complete.
public struct GeneratedContent: Sendable, Equatable, CustomDebugStringConvertible {
    /// The kinds of content.
    public enum Kind: Sendable, Equatable {
        /// `null`.
        case null
        /// A Boolean.
        case bool(Bool)
        /// A number.
        case number(Double)
        /// A string, possibly still being written.
        case string(String)
        /// An array, possibly still growing.
        case array([GeneratedContent])
        /// A structure: its properties, and their names in the order they were generated.
        case structure(properties: [String: GeneratedContent], orderedKeys: [String])
    }

    /// What the content is.
    public var kind: Kind
    /// The identity of the content, when it has one.
    public var id: GenerationID?
    /// Whether the content is complete: `false` for a string, array or structure whose JSON text
    /// had not been closed yet, or that holds incomplete content.
    public var isComplete: Bool

    /// Creates content of a kind.
    public init(kind: Kind, id: GenerationID? = nil) {
        self.init(kind: kind, id: id, isComplete: true)
    }

    init(kind: Kind, id: GenerationID? = nil, isComplete: Bool) {
        self.kind = kind
        self.id = id
        self.isComplete = isComplete
    }

    /// Creates the content of a value.
    public init(_ value: some ConvertibleToGeneratedContent) {
        self = value.generatedContent
    }

    /// Creates the content of a value, with an identity.
    public init(_ value: some ConvertibleToGeneratedContent, id: GenerationID) {
        self = value.generatedContent
        self.id = id
    }

    /// Creates a structure from properties in order. When a name repeats, the last value wins
    /// and the name keeps its first place.
    ///
    /// The order should match the order of the properties in the type's schema.
    public init(properties: KeyValuePairs<String, any ConvertibleToGeneratedContent>, id: GenerationID? = nil) {
        self.init(properties: properties.map { ($0.key, $0.value) }, id: id) { _, last in last }
    }

    /// Creates a structure from a sequence of properties, combining the values of a repeated name
    /// with `combine`.
    public init<S: Sequence>(
        properties: S,
        id: GenerationID? = nil,
        uniquingKeysWith combine: (GeneratedContent, GeneratedContent) throws -> some ConvertibleToGeneratedContent
    ) rethrows where S.Element == (String, any ConvertibleToGeneratedContent) {
        var values: [String: GeneratedContent] = [:]
        var orderedKeys: [String] = []
        for (name, value) in properties {
            let content = value.generatedContent
            if let existing = values[name] {
                values[name] = try combine(existing, content).generatedContent
            } else {
                values[name] = content
                orderedKeys.append(name)
            }
        }
        self.init(kind: .structure(properties: values, orderedKeys: orderedKeys), id: id)
    }

    /// Creates an array from elements.
    public init<S: Sequence>(elements: S, id: GenerationID? = nil) where S.Element == any ConvertibleToGeneratedContent {
        self.init(kind: .array(elements.map(\.generatedContent)), id: id)
    }

    public var debugDescription: String { jsonString }

    /// The properties in order, when this is a structure.
    var orderedProperties: [(name: String, value: GeneratedContent)]? {
        guard case .structure(let properties, let orderedKeys) = kind else { return nil }
        return orderedKeys.compactMap { name in properties[name].map { (name, $0) } }
    }
}
