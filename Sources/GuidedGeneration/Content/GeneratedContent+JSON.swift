import PartialJSON

extension GeneratedContent {
    /// Creates content from JSON text, which may be cut off anywhere: `{"title": "A story of`
    /// gives a structure whose `title` is `"A story of"`, both marked incomplete.
    ///
    /// Strings show as far as they are written; numbers, `true`, `false` and `null` once complete;
    /// members once their value has begun.
    /// - Throws: `DecodingError.dataCorrupted` when the text is not the beginning of a JSON
    ///   value (its underlying error is the ``JSONParseError`` with the position), when it is
    ///   empty, or when a number is too large for a `Double`.
    public init(json: String) throws {
        let parser = PartialJSONParser()
        do {
            try parser.feed(json)
            if parser.snapshot.root == nil {
                self = try GeneratedContent(complete: parser.finish())
                return
            }
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "Invalid JSON: \(error)", underlyingError: error))
        }
        guard let root = parser.snapshot.root else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "No JSON value"))
        }
        self = try GeneratedContent(snapshot: root)
    }

    /// Creates content from a node of a parser's snapshot.
    init(snapshot node: JSONSnapshot.Node) throws {
        let kind: Kind
        switch node.kind {
        case .null: kind = .null
        case .bool: kind = .bool(node.bool ?? false)
        case .number: kind = .number(try Self.double(node.number ?? 0))
        case .string: kind = .string(node.string ?? "")
        case .array: kind = .array(try node.elements.map(GeneratedContent.init(snapshot:)))
        case .object: kind = try Self.structure(node.members.map { ($0.key, try GeneratedContent(snapshot: $0.value)) })
        }
        self.init(kind: kind, isComplete: node.isComplete)
    }

    /// Creates content from a complete JSON value.
    init(complete value: JSONValue) throws {
        let kind: Kind
        switch value {
        case .null: kind = .null
        case .bool(let flag): kind = .bool(flag)
        case .number(let number): kind = .number(try Self.double(number))
        case .string(let text): kind = .string(text)
        case .array(let elements): kind = .array(try elements.map(GeneratedContent.init(complete:)))
        case .object(let object): kind = try Self.structure(object.members.map { ($0.key, try GeneratedContent(complete: $0.value)) })
        }
        self.init(kind: kind)
    }

    private static func structure(_ members: [(String, GeneratedContent)]) -> Kind {
        var properties: [String: GeneratedContent] = [:]
        var orderedKeys: [String] = []
        for (name, value) in members {
            if properties.updateValue(value, forKey: name) == nil { orderedKeys.append(name) }
        }
        return .structure(properties: properties, orderedKeys: orderedKeys)
    }

    private static func double(_ number: JSONNumber) throws -> Double {
        do {
            return try number.doubleValue()
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// The content as compact JSON, properties in order. Content that is still incomplete is
    /// written as if it were closed where it stops.
    public var jsonString: String {
        jsonValue.jsonString
    }

    /// The JSON text of the content as far as it is written: a string, array or structure that
    /// is not complete is left open where it stops. The text is the beginning of the compact
    /// JSON of every content this one grows into, and reading it again (with ``init(json:)``)
    /// gives this content, incomplete where it is, but for a number that ends an open container:
    /// without the byte that follows it, it shows once that byte is written.
    var writtenJSON: String {
        var output: [UInt8] = []
        writeWritten(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private func writeWritten(to output: inout [UInt8]) {
        if isComplete {
            jsonValue.write(to: &output)
            return
        }
        switch kind {
        case .string(let text):
            JSONValue.writeString(text, to: &output)
            output.removeLast()  // the closing quote
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.writeWritten(to: &output)
            }
        case .structure:
            output.append(UInt8(ascii: "{"))
            let properties = orderedProperties ?? []
            for (index, property) in properties.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(property.name, to: &output)
                output.append(UInt8(ascii: ":"))
                property.value.writeWritten(to: &output)
            }
        case .null, .bool, .number:
            // Scalars show only once complete.
            jsonValue.write(to: &output)
        }
    }

    /// The content as a JSON value, properties in order.
    var jsonValue: JSONValue {
        switch kind {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return JSONNumber(number).map(JSONValue.number) ?? .null
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(\.jsonValue))
        case .structure:
            return .object(JSONObject((orderedProperties ?? []).map { JSONObject.Member(key: $0.name, value: $0.value.jsonValue) }))
        }
    }
}
