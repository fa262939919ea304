import ConstrainedDecoding
import Foundation
import GuidedGeneration
import PartialJSON
import Testing

/// JSON Schema both ways: the files in `schemas/`, refusals by keyword and pointer, and Codable.
@Suite struct JSONSchemaTests {
    @Test func theSchemaFilesArePresent() {
        #expect(SchemaFiles.names.count >= 9)
    }

    @Test(arguments: SchemaFiles.names)
    func schemaFileRoundTrips(name: String) throws {
        let original = try SchemaFiles.value(name)
        let schema = try GenerationSchema(jsonSchema: original)
        #expect(try schema.jsonSchema() == original)
        #expect(try GenerationSchema(jsonSchema: SchemaFiles.text(name)).jsonSchemaString() == original.jsonString)
    }

    @Test(arguments: SchemaFiles.names)
    func schemaFileSurvivesCodableInKeyOrderIndependentCoders(name: String) throws {
        let schema = try GenerationSchema(jsonSchema: SchemaFiles.value(name))
        let data = try JSONEncoder().encode(schema)
        #expect(String(decoding: data, as: UTF8.self).contains("x-order"))
        let decoded = try JSONDecoder().decode(GenerationSchema.self, from: data)
        // Property order survives: every `properties` map of the decoded schema lists its names
        // as the original does (the decoder keeps no other order, which JSON gives no meaning).
        #expect(Self.propertyOrders(try decoded.jsonSchema()) == Self.propertyOrders(try schema.jsonSchema()))
        #expect(try decoded.jsonSchema().sortingKeys() == SchemaPropertyOrder.annotating(try schema.jsonSchema()).sortingKeys())
    }

    /// The names of each `properties` map in the value, in order, depth first.
    static func propertyOrders(_ value: JSONValue) -> [[String]] {
        switch value {
        case .object(let object):
            let own = object["properties"]?.objectValue.map { [$0.keys] } ?? []
            return own + object.members.sorted { $0.key < $1.key }.flatMap { propertyOrders($0.value) }
        case .array(let elements): return elements.flatMap(propertyOrders)
        default: return []
        }
    }

    /// A schema (as JSON text) that must be refused, the keyword it must name, and where.
    static let refusals: [(schema: String, keyword: String, pointer: String)] = [
        (#"{"type":"array","items":{"$ref":"other.json#/x"}}"#, "$ref", "/items/$ref"),
        (##"{"type":"array","items":{"$ref":"#/$defs/Missing"}}"##, "$ref", "/items/$ref"),
        (#"{"type":"array","minItems":-1}"#, "minItems", "/minItems"),
        (#"{"type":"object","properties":{"a/b":{"type":"array","unevaluatedItems":false}}}"#, "unevaluatedItems", "/properties/a~1b/unevaluatedItems"),
        (#"{"$schema":"https://example.com/custom-meta","type":"string"}"#, "$schema", "/$schema"),
    ]

    /// Schemas outside the form that Swift types produce, kept as written and compiled by the
    /// engine: other drafts, keywords beyond that form, annotations it does not know.
    static let documents = [
        #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"],"definitions":{}}"#,
        #"{"type":"string","format":"date"}"#,
        #"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#,
        #"{"allOf":[{"type":"string"}],"x-kubernetes-preserve-unknown-fields":true}"#,
        #"{"type":["string","null"]}"#,
        #"{"type":"object","additionalProperties":{"type":"string"},"propertyNames":{"pattern":"^[a-z]+$"}}"#,
        #"{"not":{"type":"string"}}"#,
        #"{"type":"object","dependentRequired":{"a":["b"]}}"#,
    ]

    @Test(arguments: documents)
    func documentsBeyondTheTypeFormAreKeptAsWritten(text: String) throws {
        let schema = try GenerationSchema(jsonSchema: text)
        #expect(try schema.jsonSchema() == JSONValue(parsing: text))
    }

    @Test(arguments: 0..<refusals.count)
    func unsupportedKeywordsAreRefusedByNameAndPointer(index: Int) throws {
        let (text, keyword, pointer) = Self.refusals[index]
        #expect {
            try GenerationSchema(jsonSchema: text)
        } throws: { error in
            guard let error = error as? JSONSchemaError else { return false }
            #expect(error.keyword == keyword, "\(text)")
            #expect(error.pointer == pointer, "\(text)")
            #expect(error.description.contains("'\(keyword)'"))
            return true
        }
    }

    /// A document is kept as written: its annotations, its property order, its `required` list.
    @Test func annotationsAreAcceptedAndPropertyOrderIsKept() throws {
        let text = #"{"type":"object","$comment":"c","properties":{"z":{"type":"string","examples":["q"]},"a":{"type":"number","default":1}},"required":["a","z"]}"#
        let schema = try GenerationSchema(jsonSchema: text)
        let json = try schema.jsonSchema()
        #expect(json["properties"]?.objectValue?.keys == ["z", "a"])
        #expect(json["required"] == .array([.string("a"), .string("z")]))
        #expect(json["additionalProperties"] == nil)
    }

    @Test func xOrderRestoresPropertyOrder() throws {
        let text = #"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}},"required":["a","b"],"x-order":["a","b"]}"#
        #expect(try GenerationSchema(jsonSchema: text).jsonSchema()["properties"]?.objectValue?.keys == ["a", "b"])
        // In nested schemas too, and never inside a `properties` map (a property may be named so).
        let nested = #"{"type":"array","items":{"type":"object","properties":{"x-order":{"type":"object","properties":{"q":{},"p":{}},"x-order":["p","q"]},"properties":{}},"x-order":["properties","x-order"]}}"#
        let read = try GenerationSchema(jsonSchema: nested).jsonSchema()
        #expect(read["items"]?["properties"]?.objectValue?.keys == ["properties", "x-order"])
        #expect(read["items"]?["properties"]?["x-order"]?["properties"]?.objectValue?.keys == ["p", "q"])
        // Annotating writes the order each `properties` map now has: what was read.
        #expect(SchemaPropertyOrder.annotating(read) == read)
        #expect {
            try GenerationSchema(jsonSchema: #"{"type":"object","properties":{"a":{"type":"object","properties":{"b":{}},"x-order":["b","c"]}}}"#)
        } throws: { error in
            (error as? JSONSchemaError).map { $0.keyword == "x-order" && $0.pointer == "/properties/a/x-order" } ?? false
        }
    }

    @Test func invalidJSONIsAParseError() {
        #expect(throws: JSONParseError.self) { try GenerationSchema(jsonSchema: #"{"type": "#) }
    }

    @Test func builtInTypesHaveTheirSchemas() throws {
        #expect(try Int.generationSchema.jsonSchemaString() == #"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"integer"}"#)
        #expect(try [Bool].generationSchema.jsonSchema()["items"] == .object(["type": .string("boolean")]))
        #expect(try Int?.generationSchema.jsonSchema()["anyOf"]?.jsonString == #"[{"type":"integer"},{"type":"null"}]"#)
        #expect(try Decimal.generationSchema.jsonSchema()["type"] == .string("number"))
        #expect(try GeneratedContent.generationSchema.jsonSchemaString() == #"{"$schema":"https://json-schema.org/draft/2020-12/schema"}"#)
        #expect(try Never.generationSchema.jsonSchema()["not"] == .object([:]))
        #expect(try GenerationSchema(jsonSchema: Never.generationSchema.jsonSchema()).jsonSchema() == Never.generationSchema.jsonSchema())
    }
}
