import Foundation

extension Double: Generable {
    /// Any number.
    public static var generationSchema: GenerationSchema {
        GenerationSchema(root: SchemaNode(.number(NumberConstraints())))
    }

    /// Creates a number from number content.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let number) = content.kind else { throw content.mismatch(expected: "a number", type: Double.self) }
        self = number
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(self)) }
}

extension Float: Generable {
    /// Any number.
    public static var generationSchema: GenerationSchema { Double.generationSchema }

    /// Creates a number from number content, rounded to the nearest `Float`.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let number) = content.kind else { throw content.mismatch(expected: "a number", type: Float.self) }
        self = Float(number)
    }

    public var generatedContent: GeneratedContent { GeneratedContent(kind: .number(Double(self))) }
}

extension Decimal: Generable {
    /// Any number.
    public static var generationSchema: GenerationSchema { Double.generationSchema }

    /// Creates a decimal from number content.
    public init(_ content: GeneratedContent) throws {
        guard case .number(let number) = content.kind else { throw content.mismatch(expected: "a number", type: Decimal.self) }
        self = Decimal(number)
    }

    public var generatedContent: GeneratedContent {
        GeneratedContent(kind: .number(NSDecimalNumber(decimal: self).doubleValue))
    }
}
