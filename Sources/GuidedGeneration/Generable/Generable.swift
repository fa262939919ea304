/// A type that a language model can generate: it describes itself with a schema, is made from
/// generated content, and streams as its ``PartiallyGenerated`` form while being generated.
///
/// Declare conformances with the `@Generable` macro, or by hand as the macro would expand them.
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent {
    /// The form of the type while it is being generated: for structures, every property optional.
    associatedtype PartiallyGenerated: ConvertibleFromGeneratedContent = Self

    /// What the model may generate for this type, properties in declaration order.
    static var generationSchema: GenerationSchema { get }
}

extension Generable {
    /// The value in its partially generated form.
    ///
    /// A complete value always converts; a type whose `PartiallyGenerated` cannot be made from
    /// the type's own content breaks the `Generable` contract, which stops the program.
    public func asPartiallyGenerated() -> PartiallyGenerated {
        do {
            return try PartiallyGenerated(generatedContent)
        } catch {
            preconditionFailure("\(Self.self).PartiallyGenerated cannot be made from a \(Self.self): \(error)")
        }
    }
}

extension Generable where PartiallyGenerated == Self {
    /// The value itself, which is its own partially generated form.
    public func asPartiallyGenerated() -> Self {
        self
    }
}
