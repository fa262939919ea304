@testable import GuidedGenerationMacros
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

/// Expands `@Generable`, `@Guide` and `@SessionPropertyEntry` in source text, as the compiler would for a type that does
/// not conform to `Generable` yet.
enum MacroExpansion {
    static var macros: [String: MacroSpec] {
        [
            "Generable": MacroSpec(type: GenerableMacro.self, conformances: ["Generable"]),
            "Guide": MacroSpec(type: GuideMacro.self),
            "SessionPropertyEntry": MacroSpec(type: SessionPropertyEntryMacro.self),
        ]
    }

    /// The expanded source and the messages of the diagnostics it produced.
    static func expand(_ source: String) -> (source: String, diagnostics: [String]) {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "Test.swift")])
        let expanded = file.expand(macroSpecs: macros, contextGenerator: { _ in context }, indentationWidth: .spaces(4))
        return (expanded.description, context.diagnostics.map(\.message))
    }
}
