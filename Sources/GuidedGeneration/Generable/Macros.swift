/// Makes a structure or an enumeration `Generable`: its schema (stored properties in declaration
/// order, with their `@Guide`s), `init(_ content:)`, `generatedContent` and a `PartiallyGenerated`
/// type whose properties are all optional.
///
/// Enumerations without payloads are generated as one of their case names (or string raw values);
/// enumerations with payloads as an object with a `type` naming the case beside the payload.
@attached(extension, conformances: Generable, names: named(init(_:)))
@attached(member, names: arbitrary)
public macro Generable(description: String? = nil) = #externalMacro(module: "GuidedGenerationMacros", type: "GenerableMacro")

/// Describes a property of a `@Generable` type for the model.
@attached(peer)
public macro Guide(description: String) = #externalMacro(module: "GuidedGenerationMacros", type: "GuideMacro")

/// Describes and constrains a property of a `@Generable` type: the guides are enforced while the
/// value is generated.
@attached(peer)
public macro Guide<T: Generable>(description: String? = nil, _ guides: GenerationGuide<T>...) =
    #externalMacro(module: "GuidedGenerationMacros", type: "GuideMacro")

/// Constrains a string property of a `@Generable` type to match a regular expression.
@attached(peer)
public macro Guide<RegexOutput>(description: String? = nil, _ guides: Regex<RegexOutput>) =
    #externalMacro(module: "GuidedGenerationMacros", type: "GuideMacro")
