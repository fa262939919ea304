/// Expands the Swift types a schema mentions into plain schemas: named types become
/// definitions that are referred to by name (so recursive types work), unnamed ones (numbers,
/// strings, arrays, optionals) are written in place with their guides applied.
struct SchemaResolver {
    /// The definitions, in the order they were first needed; `nil` while being resolved.
    private(set) var definitions: [(name: String, node: SchemaNode?)] = []
    private var namesOfTypes: [ObjectIdentifier: String] = [:]
    private var usedNames: Set<String> = []
    private let rootType: ObjectIdentifier?

    /// The resolved form of `schema`: its root and every definition it needs.
    static func resolve(_ schema: GenerationSchema) throws -> (root: SchemaNode, definitions: [(name: String, node: SchemaNode)]) {
        var resolver = SchemaResolver(rootType: schema.rootType)
        if let title = schema.root.title { resolver.usedNames.insert(title) }
        for (name, _) in schema.definitions {
            guard resolver.usedNames.insert(name).inserted else {
                throw GenerationSchema.SchemaError.duplicateType(
                    schema: schema.typeName, type: name,
                    context: .init(debugDescription: "Two definitions are named '\(name)'."))
            }
            resolver.definitions.append((name, nil))
        }
        let root = try resolver.resolve(schema.root, at: schema.typeName ?? "root")
        for (index, definition) in schema.definitions.enumerated() {
            resolver.definitions[index].node = try resolver.resolve(definition.node, at: definition.name)
        }
        return (root, resolver.definitions.map { ($0.name, $0.node ?? SchemaNode(.nothing)) })
    }

    private init(rootType: ObjectIdentifier?) {
        self.rootType = rootType
    }

    private mutating func resolve(_ node: SchemaNode, at path: String) throws -> SchemaNode {
        var node = node
        switch node.kind {
        case .object(let properties, let additionalProperties):
            var seen = Set<String>()
            var resolved: [SchemaProperty] = []
            for property in properties {
                guard seen.insert(property.name).inserted else {
                    throw GenerationSchema.SchemaError.duplicateProperty(
                        schema: path, property: property.name,
                        context: .init(debugDescription: "'\(property.name)' appears twice among the properties of \(path)."))
                }
                let schema = try resolve(property.schema, at: path + "." + property.name)
                resolved.append(SchemaProperty(name: property.name, schema: schema, isOptional: property.isOptional))
            }
            node.kind = .object(properties: resolved, additionalProperties: additionalProperties)
        case .array(let items, let minItems, let maxItems):
            node.kind = .array(items: try items.map { try resolve($0, at: path + "[]") }, minItems: minItems, maxItems: maxItems)
        case .anyOf(let choices):
            guard !choices.isEmpty else {
                throw GenerationSchema.SchemaError.emptyTypeChoices(
                    schema: path, context: .init(debugDescription: "\(path) is a choice among no types."))
            }
            node.kind = .anyOf(try choices.map { try resolve($0, at: path) })
        case .generable(let type, let guides):
            var expanded = try GuideConstraint.apply(guides, to: try expand(type, at: path), at: path)
            expanded.description = node.description ?? expanded.description
            return expanded
        case .string, .integer, .number, .boolean, .null, .enumeration, .constant, .reference, .anything, .nothing, .document:
            break
        }
        return node
    }

    /// The schema of a Swift type: a reference for named types, the schema itself otherwise.
    private mutating func expand(_ type: any Generable.Type, at path: String) throws -> SchemaNode {
        let identifier = ObjectIdentifier(type)
        if identifier == rootType { return SchemaNode(.reference("")) }
        if let name = namesOfTypes[identifier] { return SchemaNode(.reference(name)) }
        let schema = type.generationSchema
        guard let title = schema.root.title else {
            return try resolve(schema.root, at: path)
        }
        var name = title
        if usedNames.contains(name) { name = String(reflecting: type) }
        guard usedNames.insert(name).inserted else {
            throw GenerationSchema.SchemaError.duplicateType(
                schema: path, type: name, context: .init(debugDescription: "Two different types are named '\(name)'."))
        }
        namesOfTypes[identifier] = name
        let slot = definitions.count
        definitions.append((name, nil))
        // A schema read from JSON Schema or built dynamically may refer to its own root and
        // definitions by name; they join this schema's definitions.
        let renamed = schema.root.renamingReferences { $0.isEmpty ? name : $0 }
        for definition in schema.definitions {
            guard usedNames.insert(definition.name).inserted else {
                throw GenerationSchema.SchemaError.duplicateType(
                    schema: name, type: definition.name,
                    context: .init(debugDescription: "'\(definition.name)' is defined by \(name) and elsewhere."))
            }
            definitions.append((definition.name, try resolve(definition.node.renamingReferences { $0.isEmpty ? name : $0 }, at: definition.name)))
        }
        definitions[slot].node = try resolve(renamed, at: name)
        return SchemaNode(.reference(name))
    }
}

extension SchemaNode {
    /// The same schema with every reference renamed.
    func renamingReferences(_ rename: (String) -> String) -> SchemaNode {
        var node = self
        switch kind {
        case .reference(let name):
            node.kind = .reference(rename(name))
        case .object(let properties, let additionalProperties):
            node.kind = .object(
                properties: properties.map { SchemaProperty(name: $0.name, schema: $0.schema.renamingReferences(rename), isOptional: $0.isOptional) },
                additionalProperties: additionalProperties)
        case .array(let items, let minItems, let maxItems):
            node.kind = .array(items: items?.renamingReferences(rename), minItems: minItems, maxItems: maxItems)
        case .anyOf(let choices):
            node.kind = .anyOf(choices.map { $0.renamingReferences(rename) })
        case .string, .integer, .number, .boolean, .null, .enumeration, .constant, .anything, .nothing, .generable, .document:
            break
        }
        return node
    }
}
