import SwiftDiagnostics

/// What `@Generable` and `@Guide` report at compile time.
struct GenerableDiagnostic: DiagnosticMessage, Error {
    let message: String
    let diagnosticID: MessageID
    let severity: DiagnosticSeverity

    private init(_ id: String, _ message: String, severity: DiagnosticSeverity = .error) {
        self.message = message
        diagnosticID = MessageID(domain: "GuidedGeneration", id: id)
        self.severity = severity
    }

    static func unsupportedDeclaration(_ kind: String) -> Self {
        Self("unsupportedDeclaration", "@Generable applies to structures and enumerations, not to \(kind)")
    }

    static func missingTypeAnnotation(_ name: String) -> Self {
        Self("missingTypeAnnotation", "@Generable needs the type of '\(name)' written out (as in 'var \(name): String')")
    }

    static func notGenerable(_ type: String, property: String) -> Self {
        Self(
            "notGenerable",
            "'\(property)' has type '\(type)', which is not Generable; use String, Bool, Int, Float, Double, Decimal, arrays, optionals or @Generable types")
    }

    static func guideMismatch(guide: String, type: String, property: String, applies: String) -> Self {
        Self("guideMismatch", "the guide .\(guide) applies to \(applies), but '\(property)' has type '\(type)'")
    }

    static func implicitlyUnwrapped(_ property: String) -> Self {
        Self("implicitlyUnwrapped", "'\(property)' is implicitly unwrapped; declare it optional ('?') instead")
    }

    static func emptyEnumeration(_ name: String) -> Self {
        Self("emptyEnumeration", "'\(name)' has no cases, so no value can be generated")
    }
}
