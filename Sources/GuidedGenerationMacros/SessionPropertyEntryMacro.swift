import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@SessionPropertyEntry`: turns `var name: Type = value` in an extension of
/// `SessionPropertyValues` into a property of the session's values, read and written through a
/// key type `__Key_name` whose default is `value` (`nil` for an optional without one). The type
/// may be left out when the value is a literal (`var count = 0`), as Swift infers it.
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
            // `var count = 0`: the type is the literal's.
            guard let value = binding.initializer?.value.trimmed, let type = literalType(of: value) else {
                throw SessionPropertyEntryDiagnostic(
                    "missingType", "@SessionPropertyEntry needs the type of '\(name)' written out (as in 'var \(name): Int = 0') unless its default is a literal")
            }
            return (name, TypeSyntax(stringLiteral: type), value)
        }
        if let value = binding.initializer?.value.trimmed { return (name, type, value) }
        guard type.is(OptionalTypeSyntax.self) else {
            throw SessionPropertyEntryDiagnostic("missingDefault", "@SessionPropertyEntry needs a default value for '\(name)' (as in 'var \(name): \(type) = ...')")
        }
        return (name, type, "nil")
    }

    /// The type Swift gives a literal: `Int`, `Double`, `Bool` or `String`, and arrays and
    /// dictionaries of them that are not empty (`[1, 2.5]` is `[Double]`, as Swift infers it);
    /// `nil` for any other expression.
    static func literalType(of value: ExprSyntax) -> String? {
        if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if value.is(FloatLiteralExprSyntax.self) { return "Double" }
        if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if value.is(StringLiteralExprSyntax.self) { return "String" }
        if let negated = value.as(PrefixOperatorExprSyntax.self), negated.operator.text == "-" {
            let type = literalType(of: negated.expression)
            return type == "Int" || type == "Double" ? type : nil
        }
        if let array = value.as(ArrayExprSyntax.self) {
            return commonType(of: array.elements.map(\.expression)).map { "[\($0)]" }
        }
        if let dictionary = value.as(DictionaryExprSyntax.self), case .elements(let elements) = dictionary.content,
            let key = commonType(of: elements.map(\.key)), let element = commonType(of: elements.map(\.value))
        {
            return "[\(key): \(element)]"
        }
        return nil
    }

    /// The one type of literals that are not empty: their type when they all have it, `Double`
    /// for integers and decimals together; else `nil`.
    private static func commonType(of values: [ExprSyntax]) -> String? {
        let types = Set(values.map(literalType(of:)))
        guard !values.isEmpty, !types.contains(nil) else { return nil }
        if types.count == 1 { return types.first ?? nil }
        return types == ["Int", "Double"] ? "Double" : nil
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
