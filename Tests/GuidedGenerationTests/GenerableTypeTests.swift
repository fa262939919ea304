import Foundation
import GuidedGeneration
import PartialJSON
import Testing

/// Types written as the @Generable macro expands them behave as Apple documents.
@Suite struct GenerableTypeTests {
    @Test func schemaListsPropertiesInDeclarationOrderWithGuides() throws {
        let expected = #"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"CatProfile","description":"Basic profile information about a cat","type":"object","properties":{"name":{"type":"string"},"age":{"description":"The age of the cat","type":"integer","minimum":0,"maximum":20},"profile":{"description":"A one sentence profile about the cat's personality","type":"string"}},"required":["name","age","profile"],"additionalProperties":false}"#
        #expect(try CatProfile.generationSchema.jsonSchemaString() == expected)
    }

    @Test(arguments: [
        ("cat-profile.json", CatProfile.generationSchema),
        ("itinerary.json", Itinerary.generationSchema),
        ("comment-thread.json", Comment.generationSchema),
    ])
    func typeSchemasEqualTheirFiles(file: String, schema: GenerationSchema) throws {
        #expect(try schema.jsonSchema() == SchemaFiles.value(file))
    }

    @Test func nestedTypesBecomeDefinitionsInFirstUseOrder() throws {
        let schema = try Itinerary.generationSchema.jsonSchema()
        #expect(schema["$defs"]?.objectValue?.keys == ["DayPlan", "Activity", "Kind"])
        #expect(schema["properties"]?["days"]?.jsonString == ##"{"description":"A list of day-by-day plans.","type":"array","items":{"$ref":"#/$defs/DayPlan"},"minItems":3,"maxItems":3}"##)
        #expect(schema["properties"]?["destinationName"]?["enum"]?.arrayValue?.count == ModelData.landmarkNames.count)
        #expect(schema["required"] == .array(["title", "destinationName", "description", "days"].map(JSONValue.string)))
    }

    @Test func recursiveTypesReferToTheRoot() throws {
        let schema = try Comment.generationSchema.jsonSchema()
        #expect(schema["properties"]?["replies"]?["items"] == .object(["$ref": .string("#")]))
        #expect(schema["$defs"] == nil)
    }

    @Test func valuesRoundTripThroughGeneratedContent() throws {
        let cat = CatProfile(name: "Whiskers", age: 3, profile: "Curious about everything.")
        #expect(cat.generatedContent.jsonString == #"{"name":"Whiskers","age":3,"profile":"Curious about everything."}"#)
        #expect(try CatProfile(GeneratedContent(json: cat.generatedContent.jsonString)) == cat)
        let activity = Activity(type: .foodAndDining, title: "Ramen", description: "Lunch.")
        let itinerary = Itinerary(
            title: "Temples", destinationName: "Kyoto", description: "Three days.", rationale: nil,
            days: Array(repeating: DayPlan(title: "Day", subtitle: "s", destination: "Kyoto", activities: [activity, activity, activity]), count: 3))
        let json = itinerary.generatedContent.jsonString
        #expect(!json.contains("rationale"))
        #expect(json.hasPrefix(#"{"title":"Temples","destinationName":"Kyoto","description":"Three days.","days":[{"title":"Day","#))
        #expect(try Itinerary(GeneratedContent(json: json)) == itinerary)
        let thread = Comment(author: "a", text: "hi", likes: 2, replies: [Comment(author: "b", text: "yo", likes: 0, replies: [])])
        #expect(try Comment(GeneratedContent(json: thread.generatedContent.jsonString)) == thread)
    }

    @Test func partiallyGeneratedFromTruncatedJSON() throws {
        let whole = try CatProfile.PartiallyGenerated(GeneratedContent(json: #"{"name": "Whiskers", "age": 3, "profile": "A cu"#))
        #expect(whole.name == "Whiskers" && whole.age == 3 && whole.profile == "A cu")

        let early = try CatProfile.PartiallyGenerated(GeneratedContent(json: #"{"name": "Whis"#))
        #expect(early.name == "Whis" && early.age == nil && early.profile == nil)

        let numberInProgress = try CatProfile.PartiallyGenerated(GeneratedContent(json: #"{"name": "W", "age": 1"#))
        #expect(numberInProgress.age == nil)

        let nested = try Itinerary.PartiallyGenerated(GeneratedContent(json: #"{"title":"T","destinationName":"Kyoto","description":"d","days":[{"title":"Day 1","activities":[{"type":"shopping","title":"Mar"#))
        let day = try #require(nested.days?.first)
        #expect(nested.rationale == nil)
        #expect(day.title == "Day 1" && day.subtitle == nil)
        #expect(day.activities?.first?.type == .shopping)
        #expect(day.activities?.first?.title == "Mar")
        #expect(day.activities?.first?.description == nil)

        // A string choice half written is not a value yet; once complete, a wrong one is an error.
        let halfKind = try Activity.PartiallyGenerated(GeneratedContent(json: #"{"type":"shop"#))
        #expect(halfKind.type == nil)
        #expect(throws: DecodingError.self) { try Activity.PartiallyGenerated(GeneratedContent(json: #"{"type":"shop","#)) }
    }

    @Test func asPartiallyGeneratedKeepsEveryField() {
        let cat = CatProfile(name: "Tom", age: 20, profile: "Old.").asPartiallyGenerated()
        #expect(cat.name == "Tom" && cat.age == 20 && cat.profile == "Old.")
        #expect("text".asPartiallyGenerated() == "text")
        #expect([1, 2].asPartiallyGenerated() == [1, 2])
    }

    @Test func errorsNameThePropertyAndWhatWasFound() throws {
        do {
            _ = try CatProfile(GeneratedContent(json: #"{"name":"Tom","age":"ten","profile":"x"}"#))
            Issue.record("accepted a string age")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["age"])
            #expect(context.debugDescription == #"Property 'age': Expected an integer but found the string "ten""#)
        }
        do {
            _ = try CatProfile(GeneratedContent(json: #"{"name":"Tom","age":2}"#))
            Issue.record("accepted a missing profile")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "profile")
            #expect(context.debugDescription == "Missing property 'profile' in a structure with properties name, age")
        }
        do {
            _ = try Itinerary(GeneratedContent(json: #"{"title":"T","destinationName":"Kyoto","description":"d","days":[{"title":"a","subtitle":"b","destination":"c","activities":[{"type":"swimming","title":"t","description":"d"}]}]}"#))
            Issue.record("accepted an unknown activity kind")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["days", "[0]", "activities", "[0]", "type"])
        }
    }
}

/// A choice among types, as the macro expands an enum with payloads.
struct Circle: Generable {
    var radius: Double
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Self.self,
            properties: [
                .init(name: "type", type: String.self, guides: [.constant("circle")]),
                .init(name: "radius", type: Double.self, guides: [.minimum(0)]),
            ])
    }
    init(radius: Double) { self.radius = radius }
    init(_ content: GeneratedContent) throws { radius = try content.value(forProperty: "radius") }
    var generatedContent: GeneratedContent { GeneratedContent(properties: ["type": "circle", "radius": radius]) }
}

struct Square: Generable {
    var side: Double
    static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Self.self,
            properties: [.init(name: "type", type: String.self, guides: [.constant("square")]), .init(name: "side", type: Double.self)])
    }
    init(_ content: GeneratedContent) throws { side = try content.value(forProperty: "side") }
    var generatedContent: GeneratedContent { GeneratedContent(properties: ["type": "square", "side": side]) }
}

enum Shape: Generable {
    case circle(Circle)
    case square(Square)

    static var generationSchema: GenerationSchema {
        GenerationSchema(type: Self.self, description: "A shape", anyOf: [Circle.self, Square.self])
    }

    init(_ content: GeneratedContent) throws {
        switch try content.value(String.self, forProperty: "type") {
        case "circle": self = .circle(try Circle(content))
        case "square": self = .square(try Square(content))
        case let other: throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Unknown shape \(other)"))
        }
    }

    var generatedContent: GeneratedContent {
        switch self {
        case .circle(let circle): circle.generatedContent
        case .square(let square): square.generatedContent
        }
    }
}

@Suite struct TypeChoiceTests {
    @Test func aChoiceOfTypesIsAnAnyOfOfDefinitions() throws {
        let schema = try Shape.generationSchema.jsonSchema()
        #expect(schema["title"] == .string("Shape"))
        #expect(schema["anyOf"]?.jsonString == ##"[{"$ref":"#/$defs/Circle"},{"$ref":"#/$defs/Square"}]"##)
        #expect(schema["$defs"]?["Circle"]?["properties"]?["type"]?.jsonString == #"{"type":"string","const":"circle"}"#)
        guard case .circle(let circle) = try Shape(GeneratedContent(json: #"{"type":"circle","radius":2}"#)) else {
            Issue.record("not a circle")
            return
        }
        #expect(circle.radius == 2)
        #expect(Shape.circle(circle).generatedContent.jsonString == #"{"type":"circle","radius":2}"#)
    }
}
