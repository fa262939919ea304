import GuidedGeneration
import PartialJSON
import Testing

/// Schemas built at run time with DynamicGenerationSchema.
@Suite struct DynamicSchemaTests {
    @Test func dynamicSchemasEncodeWithDefinitionsAndReferences() throws {
        let pet = DynamicGenerationSchema(
            name: "Pet", description: "A pet",
            properties: [
                .init(name: "name", schema: DynamicGenerationSchema(type: String.self)),
                .init(name: "species", schema: DynamicGenerationSchema(name: "Species", anyOf: ["cat", "dog"])),
                .init(name: "age", description: "In years", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(0...30)]), isOptional: true),
            ])
        let person = DynamicGenerationSchema(
            name: "Person",
            properties: [
                .init(name: "name", schema: DynamicGenerationSchema(type: String.self)),
                .init(name: "pets", schema: DynamicGenerationSchema(arrayOf: DynamicGenerationSchema(referenceTo: "Pet"), minimumElements: 1, maximumElements: 4)),
                .init(name: "friends", schema: DynamicGenerationSchema(arrayOf: DynamicGenerationSchema(referenceTo: "Person"))),
                .init(name: "nickname", schema: DynamicGenerationSchema(name: "Nickname", anyOf: [DynamicGenerationSchema(type: String.self), .null])),
            ])
        let schema = try GenerationSchema(root: person, dependencies: [pet])
        let expected = ##"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Person","type":"object","properties":{"name":{"type":"string"},"pets":{"type":"array","items":{"$ref":"#/$defs/Pet"},"minItems":1,"maxItems":4},"friends":{"type":"array","items":{"$ref":"#"}},"nickname":{"title":"Nickname","anyOf":[{"type":"string"},{"type":"null"}]}},"required":["name","pets","friends","nickname"],"additionalProperties":false,"$defs":{"Pet":{"title":"Pet","description":"A pet","type":"object","properties":{"name":{"type":"string"},"species":{"title":"Species","type":"string","enum":["cat","dog"]},"age":{"description":"In years","type":"integer","minimum":0,"maximum":30}},"required":["name","species"],"additionalProperties":false}}}"##
        #expect(try schema.jsonSchemaString() == expected)
        // The encoded schema reads back to the same schema.
        #expect(try GenerationSchema(jsonSchema: schema.jsonSchema()).jsonSchemaString() == expected)
    }

    @Test func generableTypesInsideDynamicSchemasBecomeDefinitions() throws {
        let root = DynamicGenerationSchema(
            name: "Shelter", properties: [.init(name: "cats", schema: DynamicGenerationSchema(type: [CatProfile].self, guides: [.maximumCount(2)]))])
        let json = try GenerationSchema(root: root, dependencies: []).jsonSchema()
        #expect(json["properties"]?["cats"]?.jsonString == ##"{"type":"array","items":{"$ref":"#/$defs/CatProfile"},"maxItems":2}"##)
        #expect(json["$defs"]?["CatProfile"]?["properties"]?.objectValue?.keys == ["name", "age", "profile"])
    }

    @Test func schemaErrorsAreReported() {
        let person = DynamicGenerationSchema(name: "Person", properties: [.init(name: "pet", schema: DynamicGenerationSchema(referenceTo: "Pet")), .init(name: "car", schema: DynamicGenerationSchema(referenceTo: "Car"))])
        #expect {
            try GenerationSchema(root: person, dependencies: [])
        } throws: { error in
            guard case GenerationSchema.SchemaError.undefinedReferences(let schema, let references, _) = error else { return false }
            return schema == "Person" && references == ["Pet", "Car"]
        }

        let pet = DynamicGenerationSchema(name: "Pet", properties: [])
        #expect {
            try GenerationSchema(root: DynamicGenerationSchema(referenceTo: "Pet"), dependencies: [pet, pet])
        } throws: { error in
            guard case GenerationSchema.SchemaError.duplicateType(_, let type, _) = error else { return false }
            return type == "Pet"
        }

        #expect {
            try GenerationSchema(root: DynamicGenerationSchema(name: "Empty", anyOf: [String]()), dependencies: [])
        } throws: { error in
            guard case GenerationSchema.SchemaError.emptyTypeChoices = error else { return false }
            return (error as? GenerationSchema.SchemaError)?.errorDescription == "The schema 'Empty' offers no choices."
        }

        let twice = DynamicGenerationSchema(name: "Twice", properties: [.init(name: "a", schema: .null), .init(name: "a", schema: .null)])
        #expect {
            try GenerationSchema(root: twice, dependencies: [])
        } throws: { error in
            guard case GenerationSchema.SchemaError.duplicateProperty(_, let property, _) = error else { return false }
            return property == "a"
        }
    }
}
