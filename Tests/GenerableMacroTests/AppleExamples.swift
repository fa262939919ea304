import GuidedGeneration

// Apple's examples, written as Apple's documentation and sample code write them.

@Generable(description: "Basic profile information about a cat")
struct CatProfile {
    var name: String

    @Guide(description: "The age of the cat", .range(0...20))
    var age: Int

    @Guide(description: "A one sentence profile about the cat's personality")
    var profile: String
}

enum ModelData {
    static let landmarkNames = [
        "Sahara Desert", "Serengeti", "Grand Canyon", "Kyoto", "Machu Picchu", "Banff National Park", "Great Barrier Reef",
    ]
}

@Generable
struct Itinerary: Equatable {
    @Guide(description: "An exciting name for the trip.")
    let title: String
    @Guide(.anyOf(ModelData.landmarkNames))
    let destinationName: String
    let description: String

    @Guide(description: "An explanation of how the itinerary meets the person's special requests.")
    let rationale: String?

    @Guide(description: "A list of day-by-day plans.")
    @Guide(.count(3))
    let days: [DayPlan]
}

@Generable
struct DayPlan: Equatable {
    @Guide(description: "A unique and exciting title for this day plan.")
    let title: String
    let subtitle: String
    let destination: String

    @Guide(.count(3))
    let activities: [Activity]
}

@Generable
struct Activity: Equatable {
    let type: Kind
    let title: String
    let description: String
}

@Generable
enum Kind: String, CaseIterable {
    case sightseeing
    case foodAndDining
    case shopping
    case hotelAndLodging
}

@Generable
enum Category: String, CaseIterable { case hotel, restaurant }

@Generable(description: "A comment and the replies to it, which are comments too.")
struct Comment: Equatable {
    var author: String
    var text: String
    @Guide(.minimum(0))
    var likes: Int
    @Guide(.maximumCount(5))
    var replies: [Comment]
}

@Generable
enum Shape: Equatable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case label(String)
    case point
}

@Generable
struct SearchSuggestions {
    @Guide(description: "A list of suggested search terms", .count(4))
    var searchTerms: [String]

    @Guide(/[A-Z]{3}-\d{4}/)
    var code: String

    @Guide(description: "A ticket price", .range(10.0...200.0))
    var price: Double

    @Guide(.element(.range(1...5)))
    var ratings: [Int]

    var nickname: String?
    var tags: [String]?

    static let maximumTerms = 4
    var termCount: Int { searchTerms.count }
}

@Generable
public struct PublicType {
    public var name: String
    public init(name: String) { self.name = name }
}

@Generable
struct WithOwnPartial {
    var value: Int

    struct PartiallyGenerated: ConvertibleFromGeneratedContent {
        var raw: GeneratedContent
        init(_ content: GeneratedContent) throws { raw = content }
    }
}
