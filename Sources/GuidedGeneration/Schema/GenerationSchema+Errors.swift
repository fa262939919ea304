import Foundation

extension GenerationSchema {
    /// Why a set of dynamic schemas does not make a schema.
    public enum SchemaError: Error, LocalizedError {
        /// The context of an error.
        public struct Context: Sendable {
            /// What went wrong, for developers.
            public let debugDescription: String

            /// Creates a context.
            public init(debugDescription: String) {
                self.debugDescription = debugDescription
            }
        }

        /// A structure declares two properties of the same name.
        case duplicateProperty(schema: String, property: String, context: Context)
        /// Two schemas have the same name.
        case duplicateType(schema: String?, type: String, context: Context)
        /// A choice among types or strings offers none.
        case emptyTypeChoices(schema: String, context: Context)
        /// Schemas refer to names that no schema has.
        case undefinedReferences(schema: String?, references: [String], context: Context)

        public var errorDescription: String? {
            switch self {
            case .duplicateProperty(let schema, let property, _):
                "The schema '\(schema)' declares the property '\(property)' more than once."
            case .duplicateType(let schema, let type, _):
                "The type name '\(type)' is used by more than one schema\(schema.map { " (in '\($0)')" } ?? "")."
            case .emptyTypeChoices(let schema, _):
                "The schema '\(schema)' offers no choices."
            case .undefinedReferences(let schema, let references, _):
                "The schema\(schema.map { " '\($0)'" } ?? "") refers to undefined schemas: \(references.joined(separator: ", "))."
            }
        }

        public var failureReason: String? {
            switch self {
            case .duplicateProperty(_, _, let context), .duplicateType(_, _, let context),
                .emptyTypeChoices(_, let context), .undefinedReferences(_, _, let context):
                context.debugDescription
            }
        }

        public var recoverySuggestion: String? {
            switch self {
            case .duplicateProperty: "Give each property of a schema its own name."
            case .duplicateType: "Give each schema its own name."
            case .emptyTypeChoices: "Offer at least one choice."
            case .undefinedReferences: "Pass every referenced schema among the dependencies."
            }
        }
    }

    /// A generation guide that does not fit the value it guides, or that cannot be enforced.
    ///
    /// Guides are never dropped: a schema with such a guide cannot be encoded or used.
    public struct GuideError: Error, LocalizedError, CustomStringConvertible, Equatable {
        /// The guide, as written in Swift.
        public let guide: String
        /// Where the guide is: the type and property, e.g. `CatProfile.age`.
        public let path: String
        /// Why it is refused.
        public let reason: String

        public var description: String { "The guide \(guide) on \(path) is not supported: \(reason)." }
        public var errorDescription: String? { description }
    }
}
