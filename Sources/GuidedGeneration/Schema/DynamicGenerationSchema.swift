/// A schema built at run time: structures, choices, arrays and references to other dynamic
/// schemas by name, which may be recursive. Turn one into a ``GenerationSchema`` with
/// ``GenerationSchema/init(root:dependencies:)``.
public struct DynamicGenerationSchema: Sendable {
    let node: SchemaNode

    /// A property of a dynamic structure.
    public struct Property: Sendable {
        let name: String
        let description: String?
        let schema: DynamicGenerationSchema
        let isOptional: Bool

        /// Creates a property; an optional one may be left out by the model.
        public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false) {
            self.name = name
            self.description = description
            self.schema = schema
            self.isOptional = isOptional
        }
    }

    /// Creates a named structure with properties in order.
    public init(name: String, description: String? = nil, properties: [Property]) {
        let properties = properties.map { property in
            var schema = property.schema.node
            schema.description = property.description ?? schema.description
            return SchemaProperty(name: property.name, schema: schema, isOptional: property.isOptional)
        }
        node = SchemaNode(title: name, description: description, .object(properties: properties, additionalProperties: false))
    }

    /// Creates a named choice among schemas.
    public init(name: String, description: String? = nil, anyOf choices: [DynamicGenerationSchema]) {
        node = SchemaNode(title: name, description: description, .anyOf(choices.map(\.node)))
    }

    /// Creates a named choice among strings.
    public init(name: String, description: String? = nil, anyOf choices: [String]) {
        node = SchemaNode(title: name, description: description, choices.isEmpty ? .anyOf([]) : .string(StringConstraints(choices: choices)))
    }

    /// Creates an array of elements of a schema, with optional bounds on its length.
    public init(arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {
        node = SchemaNode(.array(items: itemSchema.node, minItems: minimumElements, maxItems: maximumElements))
    }

    /// Creates a reference to the schema of this name, given as the root or a dependency.
    public init(referenceTo name: String) {
        node = SchemaNode(.reference(name))
    }

    /// Creates the schema of a generable type, with guides.
    public init<Value: Generable>(type: Value.Type, guides: [GenerationGuide<Value>] = []) {
        node = SchemaNode(.generable(Value.self, guides: guides.flatMap(\.constraints)))
    }

    /// The schema of `null`.
    public static var null: DynamicGenerationSchema {
        DynamicGenerationSchema(node: SchemaNode(.null))
    }

    private init(node: SchemaNode) {
        self.node = node
    }

    /// The names this schema refers to.
    var references: [String] {
        var names: [String] = []
        func collect(_ node: SchemaNode) {
            switch node.kind {
            case .reference(let name): names.append(name)
            case .object(let properties, _): properties.forEach { collect($0.schema) }
            case .array(let items, _, _): items.map(collect)
            case .anyOf(let choices): choices.forEach(collect)
            default: break
            }
        }
        collect(node)
        return names
    }
}

extension GenerationSchema {
    /// Creates a schema from a dynamic root and the named dynamic schemas it refers to.
    ///
    /// - Throws: ``SchemaError/duplicateType(schema:type:context:)`` when two schemas share a
    ///   name, ``SchemaError/undefinedReferences(schema:references:context:)`` when a reference
    ///   names no schema, ``SchemaError/emptyTypeChoices(schema:context:)`` for a choice of
    ///   nothing, ``SchemaError/duplicateProperty(schema:property:context:)`` for a repeated
    ///   property.
    public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {
        let rootName = root.node.title
        var names: Set<String> = rootName.map { [$0] } ?? []
        var definitions: [(name: String, node: SchemaNode)] = []
        for dependency in dependencies {
            guard let name = dependency.node.title else {
                throw SchemaError.duplicateType(
                    schema: rootName, type: "",
                    context: .init(debugDescription: "A dependency has no name, so nothing can refer to it."))
            }
            guard names.insert(name).inserted else {
                throw SchemaError.duplicateType(
                    schema: rootName, type: name, context: .init(debugDescription: "Two schemas are named '\(name)'."))
            }
            definitions.append((name, dependency.node))
        }
        let undefined = ([root] + dependencies).flatMap(\.references).filter { !names.contains($0) }
        guard undefined.isEmpty else {
            var unique: [String] = []
            for name in undefined where !unique.contains(name) { unique.append(name) }
            throw SchemaError.undefinedReferences(
                schema: rootName, references: unique,
                context: .init(debugDescription: "No schema is named \(unique.map { "'\($0)'" }.joined(separator: ", "))."))
        }
        let renamed = root.node.renamingReferences { $0 == rootName ? "" : $0 }
        self.init(root: renamed, definitions: definitions.map { ($0.name, $0.node.renamingReferences { $0 == rootName ? "" : $0 }) })
        // Report the errors a schema can hold (empty choices, repeated properties) now, not when it is used.
        _ = try SchemaResolver.resolve(self)
    }
}
