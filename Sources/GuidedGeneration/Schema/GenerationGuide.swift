@_spi(LiteralPattern) import _StringProcessing
import Foundation
import PartialJSON

/// A constraint on a generated value: a fixed string, string choices, a pattern, numeric
/// bounds, or array counts. Bounds are inclusive.
///
/// The engine enforces every guide while generating; one it cannot enforce is refused with a
/// ``GenerationSchema/GuideError`` when the schema is used, never dropped.
public struct GenerationGuide<Value>: Sendable {
    let constraints: [GuideConstraint]

    init(_ constraints: [GuideConstraint]) {
        self.constraints = constraints
    }
}

extension GenerationGuide where Value == String {
    /// The string must be exactly `value`.
    public static func constant(_ value: String) -> GenerationGuide<String> {
        GenerationGuide([.constant(value)])
    }

    /// The string must be one of `values`.
    public static func anyOf(_ values: [String]) -> GenerationGuide<String> {
        GenerationGuide([.anyOf(values)])
    }

    /// The string must match `regex` in full.
    public static func pattern<Output>(_ regex: Regex<Output>) -> GenerationGuide<String> {
        GenerationGuide([GuideConstraint(regex: regex)])
    }
}

extension GenerationGuide where Value == Int {
    /// The integer must be at least `value`.
    public static func minimum(_ value: Int) -> GenerationGuide<Int> {
        GenerationGuide([.minimum(JSONNumber(value))])
    }

    /// The integer must be at most `value`.
    public static func maximum(_ value: Int) -> GenerationGuide<Int> {
        GenerationGuide([.maximum(JSONNumber(value))])
    }

    /// The integer must lie in `range`.
    public static func range(_ range: ClosedRange<Int>) -> GenerationGuide<Int> {
        GenerationGuide([.minimum(JSONNumber(range.lowerBound)), .maximum(JSONNumber(range.upperBound))])
    }
}

extension GenerationGuide where Value == Double {
    /// The number must be at least `value`.
    public static func minimum(_ value: Double) -> GenerationGuide<Double> {
        GenerationGuide(GuideConstraint.bound(.minimum, value))
    }

    /// The number must be at most `value`.
    public static func maximum(_ value: Double) -> GenerationGuide<Double> {
        GenerationGuide(GuideConstraint.bound(.maximum, value))
    }

    /// The number must lie in `range`.
    public static func range(_ range: ClosedRange<Double>) -> GenerationGuide<Double> {
        GenerationGuide(GuideConstraint.bound(.minimum, range.lowerBound) + GuideConstraint.bound(.maximum, range.upperBound))
    }
}

extension GenerationGuide where Value == Float {
    /// The number must be at least `value`.
    public static func minimum(_ value: Float) -> GenerationGuide<Float> {
        GenerationGuide(GuideConstraint.bound(.minimum, Double(value)))
    }

    /// The number must be at most `value`.
    public static func maximum(_ value: Float) -> GenerationGuide<Float> {
        GenerationGuide(GuideConstraint.bound(.maximum, Double(value)))
    }

    /// The number must lie in `range`.
    public static func range(_ range: ClosedRange<Float>) -> GenerationGuide<Float> {
        GenerationGuide(GuideConstraint.bound(.minimum, Double(range.lowerBound)) + GuideConstraint.bound(.maximum, Double(range.upperBound)))
    }
}

extension GenerationGuide where Value == Decimal {
    /// The number must be at least `value`.
    public static func minimum(_ value: Decimal) -> GenerationGuide<Decimal> {
        GenerationGuide(GuideConstraint.bound(.minimum, value))
    }

    /// The number must be at most `value`.
    public static func maximum(_ value: Decimal) -> GenerationGuide<Decimal> {
        GenerationGuide(GuideConstraint.bound(.maximum, value))
    }

    /// The number must lie in `range`.
    public static func range(_ range: ClosedRange<Decimal>) -> GenerationGuide<Decimal> {
        GenerationGuide(GuideConstraint.bound(.minimum, range.lowerBound) + GuideConstraint.bound(.maximum, range.upperBound))
    }
}

extension GenerationGuide {
    /// The array must have at least `count` elements.
    public static func minimumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>([.minimumCount(count)])
    }

    /// The array must have at most `count` elements.
    public static func maximumCount<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>([.maximumCount(count)])
    }

    /// The array must have exactly `count` elements.
    public static func count<Element>(_ count: Int) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>([.minimumCount(count), .maximumCount(count)])
    }

    /// The array's length must lie in `range`.
    public static func count<Element>(_ range: ClosedRange<Int>) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>([.minimumCount(range.lowerBound), .maximumCount(range.upperBound)])
    }

    /// Every element of the array must follow `guide`.
    public static func element<Element>(_ guide: GenerationGuide<Element>) -> GenerationGuide<[Element]> where Value == [Element] {
        GenerationGuide<[Element]>([.element(guide.constraints)])
    }
}

extension GuideConstraint {
    enum Bound { case minimum, maximum }

    /// A bound from a `Double`; infinities and NaN cannot be bounds and are refused when used.
    static func bound(_ bound: Bound, _ value: Double) -> [GuideConstraint] {
        guard let number = JSONNumber(value) else {
            return [.unenforceable(guide: ".\(bound)(\(value))", reason: "a bound must be a finite number")]
        }
        return [bound == .minimum ? .minimum(number) : .maximum(number)]
    }

    /// A bound from a `Decimal`, exact.
    static func bound(_ bound: Bound, _ value: Decimal) -> [GuideConstraint] {
        guard let number = JSONNumber(value.description) else {
            return [.unenforceable(guide: ".\(bound)(\(value))", reason: "a bound must be a finite number")]
        }
        return [bound == .minimum ? .minimum(number) : .maximum(number)]
    }
}

/// Count guides written where no element type is known, as in `@Guide(.count(3))` on a property:
/// the attribute is only type-checked there, and the `@Generable` macro copies the expression
/// into the property's schema, where the element type is known.
extension GenerationGuide where Value == [Never] {
    /// The array must have at least `count` elements.
    @_disfavoredOverload
    public static func minimumCount(_ count: Int) -> GenerationGuide<[Never]> {
        GenerationGuide([.minimumCount(count)])
    }

    /// The array must have at most `count` elements.
    @_disfavoredOverload
    public static func maximumCount(_ count: Int) -> GenerationGuide<[Never]> {
        GenerationGuide([.maximumCount(count)])
    }

    /// The array must have exactly `count` elements.
    @_disfavoredOverload
    public static func count(_ count: Int) -> GenerationGuide<[Never]> {
        GenerationGuide([.minimumCount(count), .maximumCount(count)])
    }

    /// The array's length must lie in `range`.
    @_disfavoredOverload
    public static func count(_ range: ClosedRange<Int>) -> GenerationGuide<[Never]> {
        GenerationGuide([.minimumCount(range.lowerBound), .maximumCount(range.upperBound)])
    }
}
