import GuidedGeneration
import Testing
import TestSupport

/// App flows on the default model as their users run them: the code-along's trip planner,
/// streamed with its tool, and a prompt in Korean at the default sampling, whose answer ends by
/// itself.
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

    /// Apple's cat profile asked in Korean, at the default chain (nucleus 0.9 at temperature 0.7,
    /// the model's preset), seeded so that every run is the same, and greedy: each answer ends by
    /// itself with an age in range.
    @Test(arguments: [GenerationOptions(sampling: .greedy)] + (1...3).map { GenerationOptions(sampling: .random(probabilityThreshold: 0.9, seed: $0)) })
    func aCatProfileFromAKoreanPrompt(options: GenerationOptions) async throws {
        let session = LanguageModelSession(model: try requireModel())
        let response = try await session.respond(to: "보호소에 있는 고양이의 프로필을 만들어 주세요.", generating: ShelterCat.self, options: options)
        #expect((0...20).contains(response.content.age))
        #expect(!response.content.name.isEmpty && !response.content.profile.isEmpty)
        #expect(session.statistics?.isTruncated == false)
    }

    /// A list of trip ideas asked in Korean, at the default chain, seeded: each list ends by
    /// itself, with ideas that are not empty.
    @Test(arguments: 1...3)
    func tripIdeasFromAKoreanPrompt(seed: UInt64) async throws {
        let session = LanguageModelSession(model: try requireModel())
        let options = GenerationOptions(sampling: .random(probabilityThreshold: 0.9, seed: seed))
        let response = try await session.respond(to: "가족을 위한 여행 아이디어를 몇 가지 추천해 주세요.", generating: TravelIdeas.self, options: options)
        #expect(!response.content.ideas.isEmpty && response.content.ideas.allSatisfy { !$0.isEmpty })
        #expect(session.statistics?.isTruncated == false)
    }
}
