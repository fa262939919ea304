import PartialJSON

/// The data of one generation guide, whatever its value type.
enum GuideConstraint: Sendable, Equatable {
    case constant(String)
    case anyOf([String])
    case pattern(String)
    /// A guide no engine can enforce (a regex without a source pattern, an infinite bound);
    /// refused when the schema is used.
    case unenforceable(guide: String, reason: String)
    case minimum(JSONNumber)
    case maximum(JSONNumber)
    case minimumCount(Int)
    case maximumCount(Int)
    case element([GuideConstraint])

    /// The guide as written in Swift, for messages.
    var swiftDescription: String {
        switch self {
        case .constant(let value): ".constant(\(GeneratedContent(kind: .string(value)).jsonString))"
        case .anyOf(let values): ".anyOf(\(values))"
        case .pattern(let pattern): ".pattern(/\(pattern)/)"
        case .unenforceable(let guide, _): guide
        case .minimum(let value): ".minimum(\(value))"
        case .maximum(let value): ".maximum(\(value))"
        case .minimumCount(let count): ".minimumCount(\(count))"
        case .maximumCount(let count): ".maximumCount(\(count))"
        case .element(let guides): ".element(\(guides.map(\.swiftDescription).joined(separator: ", ")))"
        }
    }

    /// Applies guides to a resolved schema.
    ///
    /// - Throws: ``GenerationSchema/GuideError`` for a guide that does not fit the schema or that
    ///   cannot be enforced.
    static func apply(_ guides: [GuideConstraint], to node: SchemaNode, at path: String) throws -> SchemaNode {
        var node = node
        for guide in guides {
            func refuse(_ reason: String) -> GenerationSchema.GuideError {
                GenerationSchema.GuideError(guide: guide.swiftDescription, path: path, reason: reason)
            }
            switch (guide, node.kind) {
            case (.constant(let value), .string(var constraints)):
                constraints.constant = value
                node.kind = .string(constraints)
            case (.anyOf(let values), .string(var constraints)):
                guard !values.isEmpty else { throw refuse("no string is allowed by an empty list of choices") }
                constraints.choices = values
                node.kind = .string(constraints)
            case (.pattern(let pattern), .string(var constraints)):
                guard constraints.pattern == nil || constraints.pattern == pattern else {
                    throw refuse("a string can follow only one pattern")
                }
                constraints.pattern = pattern
                node.kind = .string(constraints)
            case (.unenforceable(_, let reason), _):
                throw refuse(reason)
            case (.minimum(let value), .integer(var bounds)):
                bounds.minimum = value
                node.kind = .integer(bounds)
            case (.minimum(let value), .number(var bounds)):
                bounds.minimum = value
                node.kind = .number(bounds)
            case (.maximum(let value), .integer(var bounds)):
                bounds.maximum = value
                node.kind = .integer(bounds)
            case (.maximum(let value), .number(var bounds)):
                bounds.maximum = value
                node.kind = .number(bounds)
            case (.minimumCount(let count), .array(let items, _, let maxItems)):
                guard count >= 0 else { throw refuse("a count cannot be negative") }
                node.kind = .array(items: items, minItems: count, maxItems: maxItems)
            case (.maximumCount(let count), .array(let items, let minItems, _)):
                guard count >= 0 else { throw refuse("a count cannot be negative") }
                node.kind = .array(items: items, minItems: minItems, maxItems: count)
            case (.element(let elementGuides), .array(let items?, let minItems, let maxItems)):
                let guided = try apply(elementGuides, to: items, at: path + "[]")
                node.kind = .array(items: guided, minItems: minItems, maxItems: maxItems)
            default:
                throw refuse("it does not apply to this value's schema")
            }
        }
        if case .array(_, let minItems?, let maxItems?) = node.kind, minItems > maxItems {
            throw GenerationSchema.GuideError(
                guide: guides.map(\.swiftDescription).joined(separator: ", "), path: path,
                reason: "the minimum count \(minItems) is above the maximum count \(maxItems)")
        }
        return node
    }
}
