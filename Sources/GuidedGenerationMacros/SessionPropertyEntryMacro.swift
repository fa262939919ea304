import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@SessionPropertyEntry`: turns `var name: Type = value` in an extension of
/// `SessionPropertyValues` into a property of the session's values, read and written through a
/// key type `__Key_name` whose default is `value` (`nil` for an optional without one).
public struct SessionPropertyEntryMacro: AccessorMacro, PeerMacro {
    /// The property's name, type and default value.
    private static func entry(of declaration: some SyntaxProtocol) throws -> (name: String, type: TypeSyntax, value: ExprSyntax) {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindingSpecifier.tokenKind == .keyword(.var),
            variable.bindings.count == 1, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.trimmedDescription
        else {
            throw SessionPropertyEntryDiagnostic("notAVariable", "@SessionPropertyEntry applies to one 'var' with a name, a type and a default value")
        }
        guard let type = binding.typeAnnotation?.type.trimmed else {
            throw SessionPropertyEntryDiagnostic("missingType", "@SessionPropertyEntry needs the type of '\(name)' written out (as in 'var \(name): Int = 0')")
        }
        if let value = binding.initializer?.value.trimmed { return (name, type, value) }
        guard type.is(OptionalTypeSyntax.self) else {
            throw SessionPropertyEntryDiagnostic("missingDefault", "@SessionPropertyEntry needs a default value for '\(name)' (as in 'var \(name): \(type) = ...')")
        }
        return (name, type, "nil")
    }

    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        let entry = try entry(of: declaration)
        return [
            "get { self[__Key_\(raw: entry.name).self] }",
            "set { self[__Key_\(raw: entry.name).self] = newValue }",
        ]
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let entry = try entry(of: declaration)
        return [
            """
            private enum __Key_\(raw: entry.name): GuidedGeneration.SessionPropertyKey {
                static var defaultValue: \(entry.type) { \(entry.value) }
            }
            """
        ]
    }
}

/// What `@SessionPropertyEntry` reports at compile time.
struct SessionPropertyEntryDiagnostic: DiagnosticMessage, Error {
    let message: String
    let diagnosticID: MessageID
    var severity: DiagnosticSeverity { .error }

    init(_ id: String, _ message: String) {
        self.message = message
        diagnosticID = MessageID(domain: "GuidedGeneration", id: id)
    }
}
