/// A type that can be made from generated content.
///
/// Throw when the content does not have the shape the type needs; ``GeneratedContent``'s
/// `value` methods throw `DecodingError`s that name the property and what was found.
public protocol ConvertibleFromGeneratedContent: SendableMetatype {
    /// Creates a value from generated content.
    init(_ content: GeneratedContent) throws
}
