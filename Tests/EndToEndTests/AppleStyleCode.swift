// Code as written for Apple's FoundationModels framework, with only the import changed.
import GuidedGeneration

@Generable
struct SearchSuggestions {
    @Guide(description: "A list of suggested search terms", .count(4))
    var searchTerms: [String]
}

@Generable(description: "Basic profile information about a cat")
struct ShelterCat {
    // A guide isn't necessary for basic fields.
    var name: String

    @Guide(description: "The age of the cat", .range(0...20))
    var age: Int

    @Guide(description: "A one sentence profile about the cat's personality")
    var profile: String
}

@Generable(description: "Trip ideas")
struct TravelIdeas {
    @Guide(description: "Ideas for trips")
    var ideas: [String]
}

@Generable
enum Mood {
    case happy, calm, curious
}

@Generable
struct MoodReport {
    var mood: Mood
    @Guide(.pattern(/[A-Z][a-z]+/))
    var word: String
}

struct FindContactTool: Tool {
    let name = "findContact"
    let description = "Finds the phone number of a person in the user's contacts."

    @Generable
    struct Arguments {
        @Guide(description: "The person's name")
        var name: String

        @Guide(description: "How many numbers to return", .range(1...3))
        var count: Int
    }

    func call(arguments: Arguments) async throws -> String {
        "\(arguments.name): +1 555 0142"
    }
}

struct ContactsAssistant<Model: LanguageModel> {
    var model: Model

    func phoneNumber() async throws -> String {
        let session = LanguageModelSession(
            model: model, tools: [FindContactTool()],
            instructions: "You do not know anyone's phone number: look it up with a tool, then answer with what it returned.")
        do {
            let response = try await session.respond(
                to: "What is Anna's phone number?", options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 100))
            return response.content
        } catch let error as LanguageModelSession.ToolCallError {
            print("The tool \(error.tool.name) failed: \(error.underlyingError)")
            throw error
        }
    }
}

struct LandmarkSuggester<Model: LanguageModel> {
    var model: Model

    func availabilityText() -> String {
        switch SystemLanguageModel.default.availability {
        case .available:
            return "ready"
        case .unavailable(.modelNotReady):
            return "downloading"
        case .unavailable(.deviceNotEligible), .unavailable(.appleIntelligenceNotEnabled):
            return "unavailable"
        case .unavailable(_):
            return "unknown"
        }
    }

    func suggestions() async throws -> SearchSuggestions {
        let session = LanguageModelSession(model: model) {
            "You suggest search terms for a travel app."
            "Keep each term short."
        }
        let prompt = "Generate a list of suggested search terms for an app about visiting famous landmarks."
        let response = try await session.respond(
            to: prompt, generating: SearchSuggestions.self, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 200))
        return response.content
    }

    func streamCat(onPartial: (ShelterCat.PartiallyGenerated) -> Void) async throws -> ShelterCat {
        let session = LanguageModelSession(model: model, instructions: Instructions("You write profiles of shelter cats."))
        let stream = session.streamResponse(
            generating: ShelterCat.self, options: GenerationOptions(sampling: .random(top: 10, seed: 42), temperature: 0.5, maximumResponseTokens: 200)
        ) {
            "Write a profile of a cat that loves boxes."
        }
        for try await partial in stream {
            onPartial(partial.content)
        }
        return try await session.streamResponse(to: "Another one, please.", generating: ShelterCat.self, options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 200))
            .collect().content
    }

    func mood() async throws -> MoodReport {
        let session = LanguageModelSession(model: model)
        do {
            return try await session.respond(to: "How do you feel today?", generating: MoodReport.self, options: GenerationOptions(sampling: .greedy)).content
        } catch let error as LanguageModelSession.GenerationError {
            switch error {
            case .exceededContextWindowSize, .decodingFailure: throw error
            default: throw error
            }
        }
    }
}

struct StoryTeller {
    var model = SystemLanguageModel.default

    /// A story as free text, at default sampling with the seed fixed so that the test repeats.
    func story() async throws -> (text: String, statistics: GenerationStatistics?) {
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(
            to: "Write a short story about a fox who finds a lost key.", options: GenerationOptions(sampling: .random(probabilityThreshold: 0.9, seed: 2)))
        return (response.content, session.statistics)
    }
}
