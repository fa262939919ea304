/// What a ``LanguageModel`` can do.
public struct LanguageModelCapabilities: Sendable {
    /// One thing a model can do.
    public struct Capability: Hashable, Sendable {
        let name: String

        /// Calls tools to gather information or trigger side effects.
        public static var toolCalling: Capability { Capability(name: "toolCalling") }
        /// Ensures its output conforms to a given generation schema.
        public static var guidedGeneration: Capability { Capability(name: "guidedGeneration") }
        /// Reasons, structurally separately from producing a response.
        public static var reasoning: Capability { Capability(name: "reasoning") }
        /// Accepts image inputs in prompts.
        public static var vision: Capability { Capability(name: "vision") }
    }

    private let capabilities: Set<Capability>

    /// A set of capabilities.
    public init(_ capabilities: [Capability]) {
        self.capabilities = Set(capabilities)
    }

    /// A set of capabilities, with the argument label of Apple's earlier betas, which code
    /// written for them (Apple's own utilities among it) still uses.
    public init(capabilities: [Capability]) {
        self.init(capabilities)
    }

    /// Whether the model has `capability`.
    public func contains(_ capability: Capability) -> Bool {
        capabilities.contains(capability)
    }
}
