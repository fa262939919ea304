import SwiftSyntax

/// A case of an enumeration that `@Generable` generates.
///
/// Without payloads, a case is the string of its raw value (when written as a string literal) or
/// its name. With payloads, it is an object discriminated by `type`, the case name, beside its
/// payload fields: each labeled value under its label, unlabeled ones as `value`, `value1`, ...
struct EnumCase {
    struct Field {
        /// The argument label in the case, if any.
        let label: String?
        /// The key of the field in the generated object.
        let key: String
        let type: TypeShape
    }

    let name: String
    /// The string a payload-free case is generated as.
    let value: String
    let payload: [Field]

    /// The cases in declaration order.
    static func all(in declaration: some DeclGroupSyntax) -> [EnumCase] {
        declaration.memberBlock.members.flatMap { member -> [EnumCase] in
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { return [] }
            return caseDecl.elements.map { element in
                let name = element.name.trimmedDescription
                let raw = element.rawValue?.value.as(StringLiteralExprSyntax.self)?.representedLiteralValue
                var unlabeled = 0
                let payload = (element.parameterClause?.parameters ?? []).map { parameter -> Field in
                    let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.trimmedDescription }
                    let key: String
                    if let label {
                        key = label
                    } else {
                        key = unlabeled == 0 ? "value" : "value\(unlabeled)"
                        unlabeled += 1
                    }
                    return Field(label: label, key: key, type: TypeShape(type: parameter.type.trimmed))
                }
                return EnumCase(name: name, value: raw ?? name, payload: payload)
            }
        }
    }

    /// The nested type whose schema describes this case's object.
    var discriminatedName: String {
        "Discriminated" + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The schema-only type of this case's object.
    func discriminatedType(access: String) -> String {
        let properties = ["GuidedGeneration.GenerationSchema.Property(name: \"type\", type: String.self, guides: [.constant(\(StoredProperty.literal(name)))])"]
            + payload.map { "GuidedGeneration.GenerationSchema.Property(name: \(StoredProperty.literal($0.key)), type: \($0.type.type.trimmedDescription).self)" }
        return """
            \(access)nonisolated struct \(discriminatedName): GuidedGeneration.Generable {
                \(access)nonisolated static var generationSchema: GuidedGeneration.GenerationSchema {
                    GuidedGeneration.GenerationSchema(type: Self.self, properties: [
                        \(properties.joined(separator: ",\n            "))
                    ])
                }
                \(access)let generatedContent: GuidedGeneration.GeneratedContent
                \(access)nonisolated init(_ content: GuidedGeneration.GeneratedContent) throws {
                    generatedContent = content
                }
            }
            """
    }

    /// The `case` of `generatedContent`'s switch.
    var contentCase: String {
        let bindings = payload.isEmpty ? "" : "(" + payload.map { "let \($0.key)" }.joined(separator: ", ") + ")"
        let fields = [("type", StoredProperty.literal(name), false)] + payload.map { ($0.key, $0.key, $0.type.isOptional) }
        return "case .\(name)\(bindings):\n\(GenerableDeclaration.contentStatements(fields))"
    }

    /// The case of the partially generated enumeration.
    var partialCaseDeclaration: String {
        guard !payload.isEmpty else { return "case \(name)" }
        let fields = payload.map { ($0.label.map { "\($0): " } ?? "") + $0.type.partiallyGenerated }
        return "case \(name)(\(fields.joined(separator: ", ")))"
    }

    /// A switch on the `type` property that builds the matching case.
    static func decodingSwitch(_ cases: [EnumCase], typeName: String) -> String {
        let lines = cases.map { enumCase -> String in
            let arguments = enumCase.payload.map { field in
                (field.label.map { "\($0): " } ?? "") + "try content.value(forProperty: \(StoredProperty.literal(field.key)))"
            }
            let value = arguments.isEmpty ? ".\(enumCase.name)" : ".\(enumCase.name)(\(arguments.joined(separator: ", ")))"
            return "case \(StoredProperty.literal(enumCase.name)): self = \(value)"
        }
        let names = cases.map(\.name).joined(separator: ", ")
        return """
            let typeContent = try content.value(GuidedGeneration.GeneratedContent.self, forProperty: "type")
                    let type = try typeContent.value(String.self)
                    guard typeContent.isComplete else {
                        throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The \(typeName) type \\"\\(type)\\" is still being written"))
                    }
                    switch type {
                    \(lines.joined(separator: "\n        "))
                    default: throw Swift.DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected a type among \(names) for \(typeName) but found \\"\\(type)\\""))
                    }
            """
    }
}
