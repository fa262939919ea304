import PartialJSON

extension GeneratedContent {
    /// The content converted to a type.
    ///
    /// - Throws: the type's error when the content does not fit it; for the built-in types, a
    ///   `DecodingError` that says what was expected and what was found.
    public func value<Value: ConvertibleFromGeneratedContent>(_ type: Value.Type = Value.self) throws -> Value {
        try Value(self)
    }

    /// The value of a property of a structure, converted to a type.
    ///
    /// - Throws: `DecodingError.keyNotFound` when there is no such property,
    ///   `DecodingError.typeMismatch` when this is not a structure, or the conversion's error with
    ///   the property added to its coding path.
    public func value<Value: ConvertibleFromGeneratedContent>(
        _ type: Value.Type = Value.self, forProperty property: String
    ) throws -> Value {
        guard case .structure(let properties, _) = kind else {
            throw mismatch(expected: "a structure with a property '\(property)'", type: Value.self)
        }
        guard let content = properties[property] else {
            throw DecodingError.keyNotFound(
                JSONKey(property),
                DecodingError.Context(codingPath: [], debugDescription: "Missing property '\(property)' in \(describedKind)"))
        }
        return try Self.convert(content, property: property, to: Value.self)
    }

    /// The value of an optional property of a structure: `nil` when the property is missing or
    /// `null`, or while it is still being generated and cannot be converted yet (a string
    /// choice whose text is half written, say). This is what `PartiallyGenerated` types use.
    ///
    /// - Throws: `DecodingError.typeMismatch` when this is not a structure, or the conversion's
    ///   error with the property added to its coding path when the property is complete.
    public func value<Value: ConvertibleFromGeneratedContent>(
        _ type: Value?.Type = Value?.self, forProperty property: String
    ) throws -> Value? {
        guard case .structure(let properties, _) = kind else {
            throw mismatch(expected: "a structure with a property '\(property)'", type: Value.self)
        }
        guard let content = properties[property], content.kind != .null else { return nil }
        do {
            return try Self.convert(content, property: property, to: Value.self)
        } catch where !content.isComplete {
            return nil
        }
    }

    private static func convert<Value: ConvertibleFromGeneratedContent>(
        _ content: GeneratedContent, property: String, to type: Value.Type
    ) throws -> Value {
        do {
            return try Value(content)
        } catch let error as DecodingError {
            throw error.nested(in: property)
        }
    }

    /// A type mismatch that says what was expected and what this content is.
    func mismatch(expected: String, type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: [], debugDescription: "Expected \(expected) but found \(describedKind)"))
    }

    /// What this content is, in words: `the string "ten"`, `an array of 2 elements`, ...
    var describedKind: String {
        switch kind {
        case .null: return "null"
        case .bool(let flag): return "the Boolean \(flag)"
        case .number: return "the number \(jsonString)"
        case .string(let text): return "the string \(GeneratedContent(kind: .string(String(text.prefix(40)))).jsonString)"
        case .array(let elements): return "an array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
        case .structure(_, let keys): return keys.isEmpty ? "a structure with no properties" : "a structure with properties \(keys.joined(separator: ", "))"
        }
    }
}

extension DecodingError {
    /// The same error, one property deeper: the property leads the coding path and the message.
    func nested(in property: String) -> DecodingError {
        func deeper(_ context: Context) -> Context {
            Context(
                codingPath: [JSONKey(property)] + context.codingPath,
                debugDescription: "Property '\(property)': \(context.debugDescription)",
                underlyingError: context.underlyingError)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, deeper(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, deeper(context))
        case .keyNotFound(let key, let context): return .keyNotFound(key, deeper(context))
        case .dataCorrupted(let context): return .dataCorrupted(deeper(context))
        @unknown default: return self
        }
    }
}
