import SwiftSyntax

/// The description and guides that stacked `@Guide` attributes give a property, merged: the
/// last description wins and the guides add up, in order.
struct GuideAttribute {
    var description: ExprSyntax?
    /// The guide expressions as written; a regex becomes `.pattern(regex)`.
    var guides: [ExprSyntax] = []
    /// The name of each guide's factory (`range`, `count`, ...), for checking it against the type;
    /// `pattern` for a regex; `nil` when it cannot be seen.
    var guideNames: [(name: String?, node: ExprSyntax)] = []

    init(attributes: AttributeListSyntax) {
        for element in attributes {
            guard case .attribute(let attribute) = element,
                attribute.attributeName.trimmedDescription == "Guide",
                case .argumentList(let arguments)? = attribute.arguments
            else { continue }
            for argument in arguments {
                if argument.label?.text == "description" {
                    description = argument.expression
                } else if Self.isRegex(argument.expression) {
                    guides.append(ExprSyntax("GuidedGeneration.GenerationGuide<String>.pattern(\(argument.expression.trimmed))"))
                    guideNames.append(("pattern", argument.expression))
                } else {
                    guides.append(argument.expression.trimmed)
                    guideNames.append((Self.factoryName(argument.expression), argument.expression))
                }
            }
        }
    }

    /// Whether an argument is a regex rather than a generation guide.
    static func isRegex(_ expression: ExprSyntax) -> Bool {
        if expression.is(RegexLiteralExprSyntax.self) { return true }
        if let call = expression.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription.hasPrefix("Regex") { return true }
        return expression.trimmedDescription.hasPrefix("Regex")
    }

    /// `range` for `.range(0...20)` and `GenerationGuide.range(...)`.
    static func factoryName(_ expression: ExprSyntax) -> String? {
        guard let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return nil }
        return member.declName.baseName.text
    }

    /// The kinds of values each guide applies to, and how to say it.
    static func applicableCategory(of guide: String) -> (TypeShape.Category, String)? {
        switch guide {
        case "constant", "anyOf", "pattern": (.string, "String")
        case "minimum", "maximum", "range": (.number, "Int, Float, Double and Decimal")
        case "minimumCount", "maximumCount", "count", "element": (.array, "arrays")
        default: nil
        }
    }
}
