import SwiftSyntax
import SwiftSyntaxMacros

/// `@Guide`: marks a property's description and guides for `@Generable`, which reads them; on
/// its own it adds nothing.
public struct GuideMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
