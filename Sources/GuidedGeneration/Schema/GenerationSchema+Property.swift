@_spi(LiteralPattern) import _StringProcessing

extension GenerationSchema {
    /// A property of a structure: its name, description, type and guides.
    public struct Property: Sendable {
        /// The property's name.
        public let name: String
        /// What the property means, for the model.
        public let description: String?
        let schema: SchemaNode
        let isOptional: Bool

        /// Creates a property of a generable type, with guides.
        ///
        /// (Disfavored so that an optional type picks the optional-property initializer.)
        @_disfavoredOverload
        public init<Value: Generable>(
            name: String, description: String? = nil, type: Value.Type, guides: [GenerationGuide<Value>] = []
        ) {
            self.name = name
            self.description = description
            schema = SchemaNode(description: description, .generable(Value.self, guides: guides.flatMap(\.constraints)))
            isOptional = false
        }

        /// Creates an optional property of a generable type, with guides: the model may leave it out.
        public init<Value: Generable>(
            name: String, description: String? = nil, type: Value?.Type, guides: [GenerationGuide<Value>] = []
        ) {
            self.name = name
            self.description = description
            schema = SchemaNode(description: description, .generable(Value.self, guides: guides.flatMap(\.constraints)))
            isOptional = true
        }

        /// Creates a string property whose value must match regular expressions.
        public init<RegexOutput>(
            name: String, description: String? = nil, type: String.Type, guides: [Regex<RegexOutput>] = []
        ) {
            self.name = name
            self.description = description
            schema = SchemaNode(description: description, .generable(String.self, guides: guides.map(GuideConstraint.init(regex:))))
            isOptional = false
        }

        /// Creates an optional string property whose value must match regular expressions.
        public init<RegexOutput>(
            name: String, description: String? = nil, type: String?.Type, guides: [Regex<RegexOutput>] = []
        ) {
            self.name = name
            self.description = description
            schema = SchemaNode(description: description, .generable(String.self, guides: guides.map(GuideConstraint.init(regex:))))
            isOptional = true
        }
    }
}

extension GuideConstraint {
    /// The pattern of a regex, anchored (a regex guide matches the whole string, while a JSON
    /// Schema `pattern` may match anywhere in it): its source when it was written as a literal
    /// or parsed from a string; otherwise a pattern no engine can enforce, refused when the
    /// schema is used.
    init<Output>(regex: Regex<Output>) {
        if let pattern = regex._literalPattern {
            self = .pattern("^(?:" + pattern + ")$")
        } else {
            self = .unenforceable(
                guide: ".pattern(Regex<\(Output.self)>)",
                reason: "the regex has no source pattern (it was not written as a literal or parsed from a string)")
        }
    }
}
