import GuidedGeneration
import Testing

// The trip planner of Apple's Foundation Models code-along, written as Apple writes it (the
// types renamed where this target already has a type of the name): a tool that finds points of
// interest, instructions, and an itinerary streamed with a one-shot example and no schema in
// the prompt.

@Generable
struct PlannedItinerary {
    @Guide(description: "An exciting name for the trip.")
    let title: String
    @Guide(.anyOf(["Sahara Desert", "Serengeti", "Grand Canyon", "Kyoto", "Machu Picchu", "Banff National Park", "Great Barrier Reef"]))
    let destinationName: String
    let description: String

    @Guide(description: "An explanation of how the itinerary meets the person's special requests.")
    let rationale: String

    @Guide(description: "A list of day-by-day plans.")
    @Guide(.count(3))
    let days: [PlannedDay]
}

@Generable
struct PlannedDay {
    @Guide(description: "A unique and exciting title for this day plan.")
    let title: String
    let subtitle: String
    let destination: String

    @Guide(.count(3))
    let activities: [PlannedActivity]
}

@Generable
struct PlannedActivity {
    let type: Kind
    let title: String
    let description: String
}

extension PlannedItinerary {
    static let exampleTripToJapan = PlannedItinerary(
        title: "Onsen Trip to Japan",
        destinationName: "Mt. Fuji",
        description: "Sushi, hot springs, and ryokan with a toddler!",
        rationale: """
            You are traveling with a child, so climbing Mt. Fuji is probably not an option, \
            but there is lots to do around Kawaguchiko Lake, including Fujikyu. \
            I recommend staying in a ryokan because you love hot springs.
            """,
        days: [
            PlannedDay(
                title: "Sushi and Shopping Near Kawaguchiko",
                subtitle: "Spend your final day enjoying sushi and souvenir shopping.",
                destination: "Kawaguchiko Lake",
                activities: [
                    PlannedActivity(type: .foodAndDining, title: "The Restaurant serving Sushi", description: "Visit an authentic sushi restaurant for lunch."),
                    PlannedActivity(type: .shopping, title: "The Plaza", description: "Enjoy souvenir shopping at various shops."),
                    PlannedActivity(type: .sightseeing, title: "The Beautiful Cherry Blossom Park", description: "Admire the beautiful cherry blossom trees in the park."),
                ])
        ])
}

final class FindPointsOfInterestTool: Tool {
    let name = "findPointsOfInterest"
    let description = "Finds points of interest for a landmark."
    let landmark: String

    init(landmark: String) {
        self.landmark = landmark
    }

    @Generable
    enum Category: String, CaseIterable {
        case campground
        case hotel
        case cafe
        case museum
        case marina
        case restaurant
        case nationalMonument
    }

    @Generable
    struct Arguments {
        @Guide(description: "This is the type of destination to look up for.")
        let pointOfInterest: Category

        @Guide(description: "The natural language query of what to search for.")
        let naturalLanguageQuery: String
    }

    func call(arguments: Arguments) async throws -> String {
        let results = suggestions(category: arguments.pointOfInterest)
        return "There are these \(arguments.pointOfInterest) in \(landmark): \(results.joined(separator: ", "))"
    }

    private func suggestions(category: Category) -> [String] {
        switch category {
        case .campground: ["Willow Creek Campground"]
        case .hotel: ["Grand Hotel", "Sunset Lodge"]
        case .cafe: ["Morning Cup Cafe", "Lakeside Coffee"]
        case .museum: ["Museum of History"]
        case .marina: ["Harbor Marina"]
        case .restaurant: ["Riverside Restaurant", "The Tea House"]
        case .nationalMonument: ["Old Gate Monument"]
        }
    }
}

/// Plans a trip to a landmark as the code-along's `ItineraryPlanner` does, keeping every
/// snapshot it shows.
struct ItineraryPlanner {
    let landmark: String
    let landmarkDescription: String

    func suggestItinerary(dayCount: Int, onSnapshot: (PlannedItinerary.PartiallyGenerated) -> Void) async throws -> PlannedItinerary {
        let session = LanguageModelSession(
            tools: [FindPointsOfInterestTool(landmark: landmark)],
            instructions: Instructions {
                "Your job is to create an itinerary for the user."
                "Each day needs an activity, hotel and restaurant."
                """
                Always use the findPointsOfInterest tool to find businesses \
                and hotels in \(landmark), especially hotels \
                and restaurants.
                """
                "Here is a description of \(landmark) for your reference when considering what activities to generate:"
                landmarkDescription
            })
        let stream = session.streamResponse(generating: PlannedItinerary.self, includeSchemaInPrompt: false, options: GenerationOptions(sampling: .greedy)) {
            "Generate a \(dayCount)-day itinerary to \(landmark)."
            "Give it a fun title and description."
            "Here is an example, but don't copy it:"
            PlannedItinerary.exampleTripToJapan
        }
        var last: GeneratedContent?
        for try await partialResponse in stream {
            onSnapshot(partialResponse.content)
            last = partialResponse.rawContent
        }
        return try PlannedItinerary(try #require(last))
    }
}
