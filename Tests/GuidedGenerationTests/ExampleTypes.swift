import GuidedGeneration

// Types written out as the @Generable macro expands them.

/// @Generable(description: "Basic profile information about a cat")
struct CatProfile: Equatable {
    var name: String
    /// @Guide(description: "The age of the cat", .range(0...20))
    var age: Int
    /// @Guide(description: "A one sentence profile about the cat's personality")
    var profile: String
}

extension CatProfile: Generable {
    nonisolated static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Self.self, description: "Basic profile information about a cat",
            properties: [
                GenerationSchema.Property(name: "name", type: String.self),
                GenerationSchema.Property(name: "age", description: "The age of the cat", type: Int.self, guides: [.range(0...20)]),
                GenerationSchema.Property(
                    name: "profile", description: "A one sentence profile about the cat's personality", type: String.self),
            ])
    }

    nonisolated init(_ content: GeneratedContent) throws {
        name = try content.value(forProperty: "name")
        age = try content.value(forProperty: "age")
        profile = try content.value(forProperty: "profile")
    }

    nonisolated var generatedContent: GeneratedContent {
        GeneratedContent(properties: ["name": name, "age": age, "profile": profile])
    }

    nonisolated struct PartiallyGenerated: Identifiable, ConvertibleFromGeneratedContent {
        var id: GenerationID
        var name: String.PartiallyGenerated?
        var age: Int.PartiallyGenerated?
        var profile: String.PartiallyGenerated?

        nonisolated init(_ content: GeneratedContent) throws {
            id = content.id ?? GenerationID()
            name = try content.value(forProperty: "name")
            age = try content.value(forProperty: "age")
            profile = try content.value(forProperty: "profile")
        }
    }
}

enum ModelData {
    static let landmarkNames = [
        "Sahara Desert", "Serengeti", "Grand Canyon", "Kyoto", "Machu Picchu", "Banff National Park", "Great Barrier Reef",
    ]
}

/// @Generable enum Kind: String { case sightseeing, foodAndDining, shopping, hotelAndLodging }
enum Kind: String, CaseIterable, Equatable {
    case sightseeing, foodAndDining, shopping, hotelAndLodging
}

extension Kind: Generable {
    nonisolated static var generationSchema: GenerationSchema {
        GenerationSchema(type: Self.self, anyOf: ["sightseeing", "foodAndDining", "shopping", "hotelAndLodging"])
    }

    nonisolated init(_ content: GeneratedContent) throws {
        let rawValue = try content.value(String.self)
        guard let value = Self(rawValue: rawValue) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Unexpected value \"\(rawValue)\" for \(Self.self)"))
        }
        self = value
    }

    nonisolated var generatedContent: GeneratedContent { GeneratedContent(rawValue) }
}

struct Activity: Equatable {
    let type: Kind
    let title: String
    let description: String
}

extension Activity: Generable {
    nonisolated static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Self.self,
            properties: [
                GenerationSchema.Property(name: "type", type: Kind.self),
                GenerationSchema.Property(name: "title", type: String.self),
                GenerationSchema.Property(name: "description", type: String.self),
            ])
    }

    nonisolated init(_ content: GeneratedContent) throws {
        type = try content.value(forProperty: "type")
        title = try content.value(forProperty: "title")
        description = try content.value(forProperty: "description")
    }

    nonisolated var generatedContent: GeneratedContent {
        GeneratedContent(properties: ["type": type, "title": title, "description": description])
    }

    nonisolated struct PartiallyGenerated: Identifiable, ConvertibleFromGeneratedContent {
        var id: GenerationID
        var type: Kind.PartiallyGenerated?
        var title: String.PartiallyGenerated?
        var description: String.PartiallyGenerated?

        nonisolated init(_ content: GeneratedContent) throws {
            id = content.id ?? GenerationID()
            type = try content.value(forProperty: "type")
            title = try content.value(forProperty: "title")
            description = try content.value(forProperty: "description")
        }
    }
}

struct DayPlan: Equatable {
    /// @Guide(description: "A unique and exciting title for this day plan.")
    let title: String
    let subtitle: String
    let destination: String
    /// @Guide(.count(3))
    let activities: [Activity]
}

extension DayPlan: Generable {
    nonisolated static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Self.self,
            properties: [
                GenerationSchema.Property(name: "title", description: "A unique and exciting title for this day plan.", type: String.self),
                GenerationSchema.Property(name: "subtitle", type: String.self),
                GenerationSchema.Property(name: "destination", type: String.self),
                GenerationSchema.Property(name: "activities", type: [Activity].self, guides: [.count(3)]),
            ])
    }

    nonisolated init(_ content: GeneratedContent) throws {
        title = try content.value(forProperty: "title")
        subtitle = try content.value(forProperty: "subtitle")
        destination = try content.value(forProperty: "destination")
        activities = try content.value(forProperty: "activities")
    }

    nonisolated var generatedContent: GeneratedContent {
        GeneratedContent(properties: ["title": title, "subtitle": subtitle, "destination": destination, "activities": activities])
    }

    nonisolated struct PartiallyGenerated: Identifiable, ConvertibleFromGeneratedContent {
        var id: GenerationID
        var title: String.PartiallyGenerated?
        var subtitle: String.PartiallyGenerated?
        var destination: String.PartiallyGenerated?
        var activities: [Activity].PartiallyGenerated?

        nonisolated init(_ content: GeneratedContent) throws {
            id = content.id ?? GenerationID()
            title = try content.value(forProperty: "title")
            subtitle = try content.value(forProperty: "subtitle")
            destination = try content.value(forProperty: "destination")
            activities = try content.value(forProperty: "activities")
        }
    }
}

/// @Generable struct Itinerary: Equatable { ... } as in Apple's sample.
struct Itinerary: Equatable {
    let title: String
    let destinationName: String
    let description: String
    let rationale: String?
    let days: [DayPlan]
}

extension Itinerary: Generable {
    nonisolated static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Self.self,
            properties: [
                GenerationSchema.Property(name: "title", description: "An exciting name for the trip.", type: String.self),
                GenerationSchema.Property(name: "destinationName", type: String.self, guides: [.anyOf(ModelData.landmarkNames)]),
                GenerationSchema.Property(name: "description", type: String.self),
                GenerationSchema.Property(
                    name: "rationale", description: "An explanation of how the itinerary meets the person's special requests.",
                    type: String?.self),
                GenerationSchema.Property(name: "days", description: "A list of day-by-day plans.", type: [DayPlan].self, guides: [.count(3)]),
            ])
    }

    nonisolated init(_ content: GeneratedContent) throws {
        title = try content.value(forProperty: "title")
        destinationName = try content.value(forProperty: "destinationName")
        description = try content.value(forProperty: "description")
        rationale = try content.value(forProperty: "rationale")
        days = try content.value(forProperty: "days")
    }

    nonisolated var generatedContent: GeneratedContent {
        // Properties whose value is nil are left out.
        var properties: [(String, any ConvertibleToGeneratedContent)] = [
            ("title", title), ("destinationName", destinationName), ("description", description),
        ]
        if let rationale { properties.append(("rationale", rationale)) }
        properties.append(("days", days))
        return GeneratedContent(properties: properties, uniquingKeysWith: { _, second in second })
    }

    nonisolated struct PartiallyGenerated: Identifiable, ConvertibleFromGeneratedContent {
        var id: GenerationID
        var title: String.PartiallyGenerated?
        var destinationName: String.PartiallyGenerated?
        var description: String.PartiallyGenerated?
        var rationale: String.PartiallyGenerated?
        var days: [DayPlan].PartiallyGenerated?

        nonisolated init(_ content: GeneratedContent) throws {
            id = content.id ?? GenerationID()
            title = try content.value(forProperty: "title")
            destinationName = try content.value(forProperty: "destinationName")
            description = try content.value(forProperty: "description")
            rationale = try content.value(forProperty: "rationale")
            days = try content.value(forProperty: "days")
        }
    }
}

/// A recursive type: a comment and its replies.
struct Comment: Equatable {
    var author: String
    var text: String
    /// @Guide(.minimum(0))
    var likes: Int
    /// @Guide(.maximumCount(5))
    var replies: [Comment]
}

extension Comment: Generable {
    nonisolated static var generationSchema: GenerationSchema {
        GenerationSchema(
            type: Self.self, description: "A comment and the replies to it, which are comments too.",
            properties: [
                GenerationSchema.Property(name: "author", type: String.self),
                GenerationSchema.Property(name: "text", type: String.self),
                GenerationSchema.Property(name: "likes", type: Int.self, guides: [.minimum(0)]),
                GenerationSchema.Property(name: "replies", type: [Comment].self, guides: [.maximumCount(5)]),
            ])
    }

    nonisolated init(_ content: GeneratedContent) throws {
        author = try content.value(forProperty: "author")
        text = try content.value(forProperty: "text")
        likes = try content.value(forProperty: "likes")
        replies = try content.value(forProperty: "replies")
    }

    nonisolated var generatedContent: GeneratedContent {
        GeneratedContent(properties: ["author": author, "text": text, "likes": likes, "replies": replies])
    }

    nonisolated struct PartiallyGenerated: Identifiable, ConvertibleFromGeneratedContent {
        var id: GenerationID
        var author: String.PartiallyGenerated?
        var text: String.PartiallyGenerated?
        var likes: Int.PartiallyGenerated?
        var replies: [Comment].PartiallyGenerated?

        nonisolated init(_ content: GeneratedContent) throws {
            id = content.id ?? GenerationID()
            author = try content.value(forProperty: "author")
            text = try content.value(forProperty: "text")
            likes = try content.value(forProperty: "likes")
            replies = try content.value(forProperty: "replies")
        }
    }
}
