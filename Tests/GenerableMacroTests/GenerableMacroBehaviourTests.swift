import Foundation
import GuidedGeneration
import PartialJSON
import Testing

/// Apple's examples, expanded by the macros, give the schemas, JSON and snapshots Apple documents.
@Suite struct GenerableMacroBehaviourTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schemas")

    static func file(_ name: String) throws -> JSONValue {
        try JSONValue(parsing: String(contentsOf: schemas.appendingPathComponent(name), encoding: .utf8))
    }

    @Test func schemasMatchTheSchemaFiles() throws {
        #expect(try CatProfile.generationSchema.jsonSchema() == Self.file("cat-profile.json"))
        #expect(try Itinerary.generationSchema.jsonSchema() == Self.file("itinerary.json"))
        #expect(try Comment.generationSchema.jsonSchema() == Self.file("comment-thread.json"))
    }

    @Test func guidesAreCopiedAsWrittenAndEvaluatedAtRunTime() throws {
        let properties = try #require(try SearchSuggestions.generationSchema.jsonSchema()["properties"])
        #expect(properties.objectValue?.keys == ["searchTerms", "code", "price", "ratings", "nickname", "tags"])
        #expect(properties["searchTerms"]?.jsonString == #"{"description":"A list of suggested search terms","type":"array","items":{"type":"string"},"minItems":4,"maxItems":4}"#)
        #expect(properties["code"]?["pattern"] == .string(#"^(?:[A-Z]{3}\-\d{4})$"#))
        #expect(properties["price"]?.jsonString == #"{"description":"A ticket price","type":"number","minimum":10,"maximum":200}"#)
        #expect(properties["ratings"]?["items"]?.jsonString == #"{"type":"integer","minimum":1,"maximum":5}"#)
        #expect(try SearchSuggestions.generationSchema.jsonSchema()["required"]?.jsonString == #"["searchTerms","code","price","ratings"]"#)
        #expect(try Itinerary.generationSchema.jsonSchema()["properties"]?["destinationName"]?["enum"]?.arrayValue?.count == ModelData.landmarkNames.count)
    }

    @Test func enumerationsAreStringChoices() throws {
        #expect(try Category.generationSchema.jsonSchemaString() == #"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Category","type":"string","enum":["hotel","restaurant"]}"#)
        #expect(Category.restaurant.generatedContent.jsonString == #""restaurant""#)
        #expect(try Category(GeneratedContent(json: #""hotel""#)) == .hotel)
        #expect(throws: DecodingError.self) { try Category(GeneratedContent(json: #""motel""#)) }
    }

    @Test func payloadEnumerationsAreDiscriminatedObjects() throws {
        let schema = try Shape.generationSchema.jsonSchema()
        #expect(schema["anyOf"]?.arrayValue?.count == 4)
        #expect(schema["$defs"]?.objectValue?.keys == ["DiscriminatedCircle", "DiscriminatedRectangle", "DiscriminatedLabel", "DiscriminatedPoint"])
        #expect(schema["$defs"]?["DiscriminatedRectangle"]?["properties"]?.jsonString == #"{"type":{"type":"string","const":"rectangle"},"width":{"type":"number"},"height":{"type":"number"}}"#)
        #expect(Shape.circle(radius: 2).generatedContent.jsonString == #"{"type":"circle","radius":2}"#)
        #expect(Shape.label("hi").generatedContent.jsonString == #"{"type":"label","value":"hi"}"#)
        for shape in [Shape.circle(radius: 2), .rectangle(width: 1, height: 3.5), .label("x"), .point] {
            #expect(try Shape(GeneratedContent(json: shape.generatedContent.jsonString)) == shape)
        }
        guard case .rectangle(let width, let height) = try Shape.PartiallyGenerated(GeneratedContent(json: #"{"type":"rectangle","width":2,"#)) else {
            Issue.record("not a partial rectangle")
            return
        }
        #expect(width == 2 && height == nil)
    }

    @Test func valuesRoundTripAndOptionalsAreLeftOutWhenNil() throws {
        let day = DayPlan(title: "Day 1", subtitle: "Arrival", destination: "Kyoto", activities: [
            Activity(type: .sightseeing, title: "Temple", description: "Kiyomizu-dera."),
            Activity(type: .foodAndDining, title: "Ramen", description: "Lunch."),
            Activity(type: .shopping, title: "Market", description: "Nishiki."),
        ])
        let itinerary = Itinerary(title: "Kyoto", destinationName: "Kyoto", description: "Three days.", rationale: nil, days: [day, day, day])
        let json = itinerary.generatedContent.jsonString
        #expect(json.hasPrefix(#"{"title":"Kyoto","destinationName":"Kyoto","description":"Three days.","days":[{"title":"Day 1","subtitle":"Arrival""#))
        #expect(try Itinerary(GeneratedContent(json: json)) == itinerary)
        let cat = CatProfile(name: "Whiskers", age: 3, profile: "Curious.")
        #expect(cat.generatedContent.jsonString == #"{"name":"Whiskers","age":3,"profile":"Curious."}"#)
        let suggestion = SearchSuggestions(searchTerms: ["a"], code: "ABC-1234", price: 12, ratings: [1], nickname: "n", tags: nil)
        #expect(suggestion.generatedContent.jsonString == #"{"searchTerms":["a"],"code":"ABC-1234","price":12,"ratings":[1],"nickname":"n"}"#)
        #expect(PublicType(name: "p").generatedContent.jsonString == #"{"name":"p"}"#)
    }

    @Test func partiallyGeneratedSnapshotsHaveTheMissingFieldsNil() throws {
        let partial = try CatProfile.PartiallyGenerated(GeneratedContent(json: #"{"name": "Whiskers", "age": 3, "profile": "A cu"#))
        #expect(partial.name == "Whiskers" && partial.age == 3 && partial.profile == "A cu")
        let early = try Itinerary.PartiallyGenerated(GeneratedContent(json: #"{"title": "Sahara Ad"#))
        #expect(early.title == "Sahara Ad" && early.destinationName == nil && early.days == nil)
        let nested = try Itinerary.PartiallyGenerated(GeneratedContent(json: #"{"title":"T","destinationName":"Kyoto","description":"d","days":[{"title":"Day 1","activities":[{"type":"food"#))
        #expect(nested.days?.first?.activities?.first?.type == nil)
        #expect(nested.days?.first?.title == "Day 1")
        // Identity is stable when the content carries one.
        let id = GenerationID()
        #expect(try CatProfile.PartiallyGenerated(GeneratedContent(kind: .structure(properties: [:], orderedKeys: []), id: id)).id == id)
        // A user-declared PartiallyGenerated is kept.
        #expect(try WithOwnPartial.PartiallyGenerated(GeneratedContent(json: "{}")).raw.jsonString == "{}")
    }

    @Test func theMemberwiseInitializerRemains() {
        let comment = Comment(author: "a", text: "t", likes: 1, replies: [])
        #expect(comment.asPartiallyGenerated().author == "a")
    }
}
