/// How a request is put to the model: whether the schema is described in the prompt, and how
/// hard the model thinks.
public struct ContextOptions: Sendable, Equatable {
    /// How much a model that reasons thinks before it answers.
    public enum ReasoningLevel: Sendable, Equatable, Hashable {
        case light
        case moderate
        case deep
        /// A level of a provider that the other cases do not name.
        case custom(String)
    }

    /// Whether the schema of a structured response is described in the prompt; no effect
    /// without a schema. `nil` leaves it to the request's default.
    public var includeSchemaInPrompt: Bool?
    /// How hard the model thinks; `nil` leaves it to the model.
    public var reasoningLevel: ReasoningLevel?

    /// Creates options; `nil` leaves a setting at its default.
    public init(includeSchemaInPrompt: Bool? = nil, reasoningLevel: ReasoningLevel? = nil) {
        self.includeSchemaInPrompt = includeSchemaInPrompt
        self.reasoningLevel = reasoningLevel
    }
}
