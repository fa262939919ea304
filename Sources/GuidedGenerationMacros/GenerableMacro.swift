import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Generable(description:)`: makes a structure or an enumeration `Generable` as Apple's macro
/// does. Members: `generationSchema` (properties in declaration order, guide expressions copied as
/// written), `generatedContent` and a `PartiallyGenerated` type; an extension adds the conformance
/// and `init(_ content:)`, outside the type so that a structure keeps its memberwise initializer.
public struct GenerableMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let generable = GenerableDeclaration(node: node, declaration: declaration, report: { context.diagnose($0) }) else {
            return []
        }
        return generable.members.map { DeclSyntax(stringLiteral: $0) }
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // Problems were reported by the member role; stay silent here.
        guard let generable = GenerableDeclaration(node: node, declaration: declaration, report: { _ in }) else { return [] }
        let conformance = protocols.isEmpty ? "" : ": GuidedGeneration.Generable"
        let text = "extension \(type.trimmedDescription)\(conformance) {\n\(generable.contentInitializer)\n}"
        return [try ExtensionDeclSyntax("\(raw: text)")]
    }
}

/// A declaration `@Generable` is attached to, read into what the expansion needs.
struct GenerableDeclaration {
    enum Shape {
        case structure([StoredProperty])
        case choices([String], caseNames: [String])
        case payloads([EnumCase])
    }

    let name: String
    let description: String?
    let shape: Shape
    /// `public ` or `package ` when the type is, so that the conformance's members are visible.
    let access: String
    let declaresPartiallyGenerated: Bool
    let hasOwnIdentity: Bool

    init?(node: AttributeSyntax, declaration: some DeclGroupSyntax, report: (Diagnostic) -> Void) {
        if let structure = declaration.as(StructDeclSyntax.self) {
            name = structure.name.trimmedDescription
        } else if let enumeration = declaration.as(EnumDeclSyntax.self) {
            name = enumeration.name.trimmedDescription
        } else {
            let kind = declaration.is(ClassDeclSyntax.self) ? "classes" : declaration.is(ActorDeclSyntax.self) ? "actors"
                : declaration.is(ProtocolDeclSyntax.self) ? "protocols" : "extensions"
            report(Diagnostic(node: node, message: GenerableDiagnostic.unsupportedDeclaration(kind)))
            return nil
        }
        if case .argumentList(let arguments)? = node.arguments, let argument = arguments.first(where: { $0.label?.text == "description" }) {
            description = argument.expression.trimmedDescription
        } else {
            description = nil
        }
        let modifiers = declaration.modifiers.map(\.name.text)
        access = modifiers.contains("public") || modifiers.contains("open") ? "public " : modifiers.contains("package") ? "package " : ""
        declaresPartiallyGenerated = declaration.memberBlock.members.contains { member in
            let decl = member.decl
            let declared = decl.as(StructDeclSyntax.self)?.name ?? decl.as(EnumDeclSyntax.self)?.name ?? decl.as(TypeAliasDeclSyntax.self)?.name
                ?? decl.as(ClassDeclSyntax.self)?.name
            return declared?.text == "PartiallyGenerated"
        }
        if declaration.is(StructDeclSyntax.self) {
            guard let properties = StoredProperty.all(in: declaration, report: report) else { return nil }
            shape = .structure(properties)
            hasOwnIdentity = properties.contains { $0.name == "id" }
        } else {
            let cases = EnumCase.all(in: declaration)
            guard !cases.isEmpty else {
                report(Diagnostic(node: node, message: GenerableDiagnostic.emptyEnumeration(name)))
                return nil
            }
            hasOwnIdentity = false
            if cases.allSatisfy({ $0.payload.isEmpty }) {
                shape = .choices(cases.map(\.value), caseNames: cases.map(\.name))
            } else {
                shape = .payloads(cases)
            }
        }
    }

    var members: [String] {
        var members = [schema, generatedContent]
        if case .payloads(let cases) = shape {
            members += cases.map { $0.discriminatedType(access: access) }
        }
        if !declaresPartiallyGenerated, let partial = partiallyGeneratedType { members.append(partial) }
        return members
    }

    private var descriptionArgument: String {
        description.map { ", description: \($0)" } ?? ""
    }

    private var schema: String {
        let body: String
        switch shape {
        case .structure(let properties):
            let list = properties.map { "            " + $0.schemaProperty }.joined(separator: ",\n")
            body = "GuidedGeneration.GenerationSchema(\n        type: Self.self\(descriptionArgument),\n        properties: [\n\(list)\n        ]\n    )"
        case .choices(let values, _):
            body = "GuidedGeneration.GenerationSchema(type: Self.self\(descriptionArgument), anyOf: [\(values.map(StoredProperty.literal).joined(separator: ", "))])"
        case .payloads(let cases):
            body = "GuidedGeneration.GenerationSchema(type: Self.self\(descriptionArgument), anyOf: [\(cases.map { "\($0.discriminatedName).self" }.joined(separator: ", "))])"
        }
        return "\(access)nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {\n    \(body)\n}"
    }

    private var generatedContent: String {
        let body: String
        switch shape {
        case .structure(let properties):
            body = Self.contentStatements(properties.map { ($0.name, "self.\($0.name)", $0.type.isOptional) })
        case .choices(let values, let names):
            let cases = zip(names, values).map { "case .\($0): return GuidedGeneration.GeneratedContent(\(StoredProperty.literal($1)))" }
            body = "switch self {\n    \(cases.joined(separator: "\n    "))\n    }"
        case .payloads(let cases):
            body = "switch self {\n    \(cases.map(\.contentCase).joined(separator: "\n    "))\n    }"
        }
        return "\(access)nonisolated var generatedContent: GuidedGeneration.GeneratedContent {\n    \(body)\n}"
    }

    /// Statements that build a structure's content from (key, expression, is optional) triples in
    /// order, leaving out optionals that are `nil`, and return it.
    static func contentStatements(_ fields: [(key: String, expression: String, isOptional: Bool)]) -> String {
        // Local names that no property or payload label can shadow; a structure without
        // properties has nothing to add to its list.
        let binding = fields.isEmpty ? "let" : "var"
        var lines = ["\(binding) _generableProperties: [(String, any GuidedGeneration.ConvertibleToGeneratedContent)] = []"]
        for field in fields {
            let key = StoredProperty.literal(field.key)
            if field.isOptional {
                lines.append("if let _generableValue = \(field.expression) { _generableProperties.append((\(key), _generableValue)) }")
            } else {
                lines.append("_generableProperties.append((\(key), \(field.expression)))")
            }
        }
        lines.append("return GuidedGeneration.GeneratedContent(properties: _generableProperties, uniquingKeysWith: { _, last in last })")
        return lines.joined(separator: "\n")
    }

    /// `init(_ content:)`, for the extension.
    var contentInitializer: String {
        let body: String
        switch shape {
        case .structure(let properties):
            body = properties.map { "self.\($0.name) = try content.value(forProperty: \(StoredProperty.literal($0.name)))" }.joined(separator: "\n        ")
        case .choices(let values, let names):
            let cases = zip(names, values).map { "case \(StoredProperty.literal($1)): self = .\($0)" }
            body = """
                let value = try content.value(String.self)
                        guard content.isComplete else {
                            throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The \(name) value \\"\\(value)\\" is still being written"))
                        }
                        switch value {
                        \(cases.joined(separator: "\n        "))
                        default: throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected one of \(values.joined(separator: ", ")) for \(name) but found \\"\\(value)\\""))
                        }
                """
        case .payloads(let cases):
            body = EnumCase.decodingSwitch(cases, typeName: name)
        }
        return "    \(access)nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {\n        \(body)\n    }"
    }

    private var partiallyGeneratedType: String? {
        switch shape {
        case .structure(let properties):
            let identity = hasOwnIdentity ? "" : "    \(access)var id: GuidedGeneration.GenerationID\n"
            let conformances = hasOwnIdentity ? "GuidedGeneration.ConvertibleFromGeneratedContent" : "Identifiable, GuidedGeneration.ConvertibleFromGeneratedContent"
            let fields = properties.map { "    \(access)var \($0.name): \($0.type.partiallyGenerated)\n" }.joined()
            let assignments = properties.map { "        self.\($0.name) = try content.value(forProperty: \(StoredProperty.literal($0.name)))\n" }.joined()
            let identityAssignment = hasOwnIdentity ? "" : "        self.id = content.id ?? GuidedGeneration.GenerationID()\n"
            return """
                \(access)nonisolated struct PartiallyGenerated: \(conformances) {
                \(identity)\(fields)    \(access)nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                \(identityAssignment)\(assignments)    }
                }
                """
        case .choices:
            return nil
        case .payloads(let cases):
            return """
                \(access)nonisolated enum PartiallyGenerated: GuidedGeneration.ConvertibleFromGeneratedContent {
                    \(cases.map(\.partialCaseDeclaration).joined(separator: "\n    "))
                    \(access)nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                        \(EnumCase.decodingSwitch(cases, typeName: name))
                    }
                }
                """
        }
    }
}
