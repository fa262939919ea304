import SwiftSyntax

/// What can be seen of a property's type from its syntax alone.
struct TypeShape {
    /// The broad kinds that guides apply to.
    enum Category {
        case string, number, boolean, array, other
    }

    let type: TypeSyntax

    /// The type without one level of optionality: `Int?` and `Optional<Int>` give `Int`.
    var unwrapped: TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional" {
            return Self.typeArguments(of: identifier).first
        }
        return nil
    }

    var isOptional: Bool { unwrapped != nil }

    /// The kind of the type, optionality aside.
    var category: Category {
        let base = unwrapped ?? type
        if base.is(ArrayTypeSyntax.self) { return .array }
        guard let identifier = base.as(IdentifierTypeSyntax.self) else { return .other }
        switch identifier.name.text {
        case "String": return .string
        case "Int", "Float", "Double", "Decimal": return .number
        case "Bool": return .boolean
        case "Array": return .array
        default: return .other
        }
    }

    /// Type names that are known not to be Generable.
    static let notGenerable: Set<String> = [
        "Date", "URL", "UUID", "Data", "Set", "Dictionary", "CGFloat", "Character", "Substring", "Int8", "Int16",
        "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Float16", "Float80", "Any", "AnyObject",
        "GenerationID",
    ]

    /// The part of the type that is visibly not Generable, if any.
    var visiblyNotGenerable: TypeSyntax? {
        Self.findNotGenerable(type)
    }

    private static func findNotGenerable(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return findNotGenerable(optional.wrappedType) }
        if let array = type.as(ArrayTypeSyntax.self) { return findNotGenerable(array.element) }
        if type.is(DictionaryTypeSyntax.self) || type.is(TupleTypeSyntax.self) || type.is(FunctionTypeSyntax.self)
            || type.is(SomeOrAnyTypeSyntax.self) || type.is(MetatypeTypeSyntax.self)
        {
            return type
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            if notGenerable.contains(identifier.name.text) { return type }
            if ["Array", "Optional"].contains(identifier.name.text) {
                for argument in typeArguments(of: identifier) {
                    if let found = findNotGenerable(argument) { return found }
                }
            }
        }
        return nil
    }

    /// The generic type arguments of a type such as `Optional<Int>`.
    static func typeArguments(of identifier: IdentifierTypeSyntax) -> [TypeSyntax] {
        (identifier.genericArgumentClause?.arguments ?? []).compactMap { Syntax($0.argument).as(TypeSyntax.self) }
    }

    /// The type of the property in a `PartiallyGenerated` value: `T.PartiallyGenerated?` for `T`
    /// and for `T?`.
    var partiallyGenerated: String {
        let base = unwrapped ?? type
        let text = base.trimmedDescription
        let needsParentheses = !(base.is(IdentifierTypeSyntax.self) || base.is(ArrayTypeSyntax.self) || base.is(MemberTypeSyntax.self))
        return (needsParentheses ? "(\(text))" : text) + ".PartiallyGenerated?"
    }
}
