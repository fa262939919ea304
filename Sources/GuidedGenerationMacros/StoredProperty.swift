import SwiftDiagnostics
import SwiftSyntax

/// A stored property that `@Generable` generates, with its guides.
struct StoredProperty {
    let name: String
    let type: TypeShape
    let guide: GuideAttribute

    /// The stored instance properties of a structure that are generated, in declaration order.
    /// Static, computed and constant-initialized (`let x = 1`) properties are skipped. Problems
    /// are reported through `report`; `nil` when there were any.
    static func all(in declaration: some DeclGroupSyntax, report: (Diagnostic) -> Void) -> [StoredProperty]? {
        var properties: [StoredProperty] = []
        var valid = true
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
            else { continue }
            let guide = GuideAttribute(attributes: variable.attributes)
            let isConstant = variable.bindingSpecifier.text == "let"
            // `var a, b: Int` gives both names the type written last.
            var laterType: TypeSyntax?
            var bindings: [(String, TypeSyntax?, PatternBindingSyntax)] = []
            for binding in variable.bindings.reversed() {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if isComputed(binding) { continue }
                if isConstant, binding.initializer != nil { continue }
                let type = binding.typeAnnotation?.type ?? (binding.initializer == nil ? laterType : nil)
                laterType = type
                bindings.insert((identifier.identifier.trimmedDescription, type, binding), at: 0)
            }
            for (name, type, binding) in bindings {
                guard let type else {
                    report(Diagnostic(node: binding, message: GenerableDiagnostic.missingTypeAnnotation(name)))
                    valid = false
                    continue
                }
                if type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                    report(Diagnostic(node: type, message: GenerableDiagnostic.implicitlyUnwrapped(name)))
                    valid = false
                    continue
                }
                let shape = TypeShape(type: type.trimmed)
                if let offending = shape.visiblyNotGenerable {
                    report(Diagnostic(node: type, message: GenerableDiagnostic.notGenerable(offending.trimmedDescription, property: name)))
                    valid = false
                    continue
                }
                if !checkGuides(guide, on: shape, property: name, report: report) {
                    valid = false
                    continue
                }
                properties.append(StoredProperty(name: name, type: shape, guide: guide))
            }
        }
        return valid ? properties : nil
    }

    private static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
        switch binding.accessorBlock?.accessors {
        case .getter?: return true
        case .accessors(let accessors)?:
            return accessors.contains { ["get", "_read", "unsafeAddress"].contains($0.accessorSpecifier.text) }
        case nil: return false
        @unknown default: return false
        }
    }

    /// Reports guides that visibly do not fit the property's type.
    private static func checkGuides(
        _ guide: GuideAttribute, on shape: TypeShape, property: String, report: (Diagnostic) -> Void
    ) -> Bool {
        let category = shape.category
        guard category != .other else { return true }
        var valid = true
        for (name, node) in guide.guideNames {
            guard let name, let (applies, description) = GuideAttribute.applicableCategory(of: name), applies != category else { continue }
            report(
                Diagnostic(
                    node: node,
                    message: GenerableDiagnostic.guideMismatch(guide: name, type: shape.type.trimmedDescription, property: property, applies: description)))
            valid = false
        }
        return valid
    }

    /// `GenerationSchema.Property(name: ..., description: ..., type: T.self, guides: [...])`.
    var schemaProperty: String {
        var arguments = ["name: \(Self.literal(name))"]
        if let description = guide.description { arguments.append("description: \(description.trimmedDescription)") }
        arguments.append("type: \(type.type.trimmedDescription).self")
        if !guide.guides.isEmpty { arguments.append("guides: [\(guide.guides.map(\.trimmedDescription).joined(separator: ", "))]") }
        return "GuidedGeneration.GenerationSchema.Property(\(arguments.joined(separator: ", ")))"
    }

    /// A Swift string literal for `text`.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"\(escaped)\""
    }
}
