import GuidedGeneration
import Testing
import TestSupport

/// App flows on the default model as their users run them: the code-along's trip planner,
/// streamed with its tool.
@Suite(.serialized) struct AppFlowTests {
    @Test func theTripPlannerStreamsAnItinerary() async throws {
        _ = try requireModel()
        let planner = ItineraryPlanner(
            landmark: "Kyoto",
            landmarkDescription: "Kyoto is the former capital of Japan, known for its temples, gardens, tea houses and geisha district.")
        var snapshots: [PlannedItinerary.PartiallyGenerated] = []
        let itinerary = try await planner.suggestItinerary(dayCount: 3) { snapshots.append($0) }
        #expect(snapshots.count > 20)
        for (previous, next) in zip(snapshots, snapshots.dropFirst()) {
            if let failure = growthFailure(from: previous, to: next) { Issue.record("the itinerary's snapshots: \(failure)") }
        }
        #expect(itinerary.days.count == 3)
        #expect(itinerary.days.allSatisfy { $0.activities.count == 3 })
        #expect(!itinerary.title.isEmpty)
    }
}
