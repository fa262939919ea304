import Foundation

extension Transcript {
    /// The instructions of a session, with the definitions of the tools it offers.
    public struct Instructions: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        public var segments: [Segment]
        public var toolDefinitions: [ToolDefinition]

        public init(id: String = UUID().uuidString, segments: [Segment], toolDefinitions: [ToolDefinition]) {
            self.id = id
            self.segments = segments
            self.toolDefinitions = toolDefinitions
        }
    }

    /// A prompt, with the options and the response format it was made with.
    public struct Prompt: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        public var segments: [Segment]
        public var options: GenerationOptions
        public var responseFormat: ResponseFormat?

        public init(id: String = UUID().uuidString, segments: [Segment], options: GenerationOptions = GenerationOptions(), responseFormat: ResponseFormat? = nil) {
            self.id = id
            self.segments = segments
            self.options = options
            self.responseFormat = responseFormat
        }
    }

    /// What the model reasoned before it answered or called tools, as far as its provider shows
    /// it: the text or a summary of it, and a signature that stands for the rest (with a
    /// signature, the segments may be a partial summary, or empty).
    public struct Reasoning: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        public var segments: [Segment]
        public var signature: Data?
        /// What the provider attached to the reasoning.
        public var metadata: [String: GeneratedContent]

        public init(
            id: String = UUID().uuidString, metadata: [String: any ConvertibleToGeneratedContent] = [:], segments: [Segment], signature: Data? = nil
        ) {
            self.id = id
            self.segments = segments
            self.signature = signature
            self.metadata = metadata.mapValues(\.generatedContent)
        }
    }

    /// A response of the model.
    public struct Response: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        public var assetIDs: [String]
        public var segments: [Segment]

        public init(id: String = UUID().uuidString, assetIDs: [String], segments: [Segment]) {
            self.id = id
            self.assetIDs = assetIDs
            self.segments = segments
        }
    }

    /// The tools the model called in one turn.
    public struct ToolCalls: Sendable, Equatable, Identifiable, Codable, RandomAccessCollection {
        public var id: String
        var calls: [ToolCall]

        public init<S: Sequence>(id: String = UUID().uuidString, _ calls: S) where S.Element == ToolCall {
            self.id = id
            self.calls = Array(calls)
        }

        public var startIndex: Int { calls.startIndex }
        public var endIndex: Int { calls.endIndex }
        public subscript(position: Int) -> ToolCall { calls[position] }
    }

    /// A call of a tool, with its arguments.
    public struct ToolCall: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        public var toolName: String
        public var arguments: GeneratedContent

        public init(id: String, toolName: String, arguments: GeneratedContent) {
            self.id = id
            self.toolName = toolName
            self.arguments = arguments
        }

        private enum CodingKeys: String, CodingKey {
            case id, toolName, arguments
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            toolName = try container.decode(String.self, forKey: .toolName)
            arguments = try container.decodeJSONText(forKey: .arguments)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(toolName, forKey: .toolName)
            try container.encode(arguments.jsonString, forKey: .arguments)
        }
    }

    /// What a tool returned.
    public struct ToolOutput: Sendable, Equatable, Identifiable, Codable {
        public var id: String
        public var toolName: String
        public var segments: [Segment]

        public init(id: String, toolName: String, segments: [Segment]) {
            self.id = id
            self.toolName = toolName
            self.segments = segments
        }
    }

    /// A tool as the model is told about it: its name, what it does, and its arguments' schema.
    public struct ToolDefinition: Sendable, Equatable, Codable {
        public var name: String
        public var description: String
        /// The schema of the arguments.
        public var parameters: GenerationSchema
        /// Whether the model reads the schema of the arguments (it is enforced either way).
        var includesSchema: Bool

        public init(name: String, description: String, parameters: GenerationSchema) {
            self.init(name: name, description: description, parameters: parameters, includesSchema: true)
        }

        /// The definition of a tool.
        public init(tool: some Tool) {
            self.init(name: tool.name, description: tool.description, parameters: tool.parameters, includesSchema: tool.includesSchemaInInstructions)
        }

        private init(name: String, description: String, parameters: GenerationSchema, includesSchema: Bool) {
            self.name = name
            self.description = description
            self.parameters = parameters
            self.includesSchema = includesSchema
        }

        private enum CodingKeys: String, CodingKey {
            case name, description, parameters, includesSchema
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                name: try container.decode(String.self, forKey: .name),
                description: try container.decode(String.self, forKey: .description),
                parameters: try container.decode(GenerationSchema.self, forKey: .parameters),
                includesSchema: try container.decodeIfPresent(Bool.self, forKey: .includesSchema) ?? true)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(description, forKey: .description)
            try container.encode(parameters, forKey: .parameters)
            if !includesSchema { try container.encode(includesSchema, forKey: .includesSchema) }
        }

        public static func == (left: ToolDefinition, right: ToolDefinition) -> Bool {
            left.name == right.name && left.description == right.description && left.includesSchema == right.includesSchema
                && left.parameters.isSame(as: right.parameters)
        }
    }

    /// The shape a response was asked to have.
    public struct ResponseFormat: Sendable, Equatable, Codable {
        let schema: GenerationSchema

        /// A format from a schema.
        public init(schema: GenerationSchema) {
            self.schema = schema
        }

        /// The format of a generable type.
        public init<Content: Generable>(type: Content.Type) {
            schema = Content.generationSchema
        }

        /// The name of the type the format describes.
        public var name: String { schema.name }

        public static func == (left: ResponseFormat, right: ResponseFormat) -> Bool {
            left.schema.isSame(as: right.schema)
        }
    }
}

extension GenerationSchema {
    /// Whether two schemas encode to the same JSON Schema, up to the order of keys that JSON
    /// gives no meaning to (property order, which has one, is compared through `x-order`): a
    /// schema read back from its encoding is the same schema.
    func isSame(as other: GenerationSchema) -> Bool {
        (try? jsonSchema(orderAnnotations: true).sortingKeys()) == (try? other.jsonSchema(orderAnnotations: true).sortingKeys())
    }
}
