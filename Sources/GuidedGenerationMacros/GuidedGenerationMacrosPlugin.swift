@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The compiler plugin that serves the `@Generable`, `@Guide` and `@SessionPropertyEntry` macros.
@main
struct GuidedGenerationMacrosPlugin: PluginProvider {

    /// Why a macro cannot be found.
    struct UnknownMacro: Error, CustomStringConvertible {
        let typeName: String
        var description: String { "this plugin has no macro named \(typeName)" }
    }

    func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
        switch typeName {
        case "GenerableMacro": return GenerableMacro.self
        case "GuideMacro": return GuideMacro.self
        case "SessionPropertyEntryMacro": return SessionPropertyEntryMacro.self
        default: throw UnknownMacro(typeName: typeName)
        }
    }

    static func main() throws {
        let listener = CompilerPluginMessageListener(connection: StandardIOConnection(), provider: Self())
        try listener.main()
    }
}
