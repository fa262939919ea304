import Testing

@testable import GuidedGeneration

/// The parts of Apple's FoundationModels 27 surface that its own code uses and that behave
/// simply here: the spellings it uses, and the server model that this platform cannot reach.
@Suite struct AppleSurfaceTests {
    @Test func capabilitiesTakeEitherLabel() {
        let labelled = LanguageModelCapabilities(capabilities: [.toolCalling])
        #expect(labelled.contains(.toolCalling))
        #expect(!labelled.contains(.guidedGeneration))
        #expect(LanguageModelCapabilities([.vision]).contains(.vision))
    }

    @Test func theUnavailableReasonIsNamedInsideAvailability() {
        let reason: SystemLanguageModel.Availability.UnavailableReason = .modelNotReady
        #expect(SystemLanguageModel.Availability.unavailable(reason) == .unavailable(SystemLanguageModel.UnavailableReason.modelNotReady))
    }

    @Test func aSchemaIsNamedByItsTypeOrTitle() throws {
        #expect(Pet.generationSchema.name == "Pet")
        #expect(try GenerationSchema(jsonSchema: #"{"title":"Invoice","type":"object","properties":{}}"#).name == "Invoice")
        #expect(try GenerationSchema(jsonSchema: #"{"type":"string"}"#).name == "response")
    }

    @Test func aParsingErrorKeepsTheRawContent() {
        let error = GeneratedContent.ParsingError(rawContent: #"{"skill":"x"}"#, debugDescription: "No skill is named 'x'.")
        #expect(error.rawContent == #"{"skill":"x"}"#)
        #expect(error.debugDescription == "No skill is named 'x'.")
    }

    @Test func privateCloudComputeIsUnavailableAndRefusesRequests() async throws {
        let model = PrivateCloudComputeLanguageModel()
        #expect(!model.isAvailable)
        #expect(model.availability == .unavailable(.deviceNotEligible))
        #expect(await model.contextSize == 32_768)
        let session = LanguageModelSession(model: model)
        await #expect {
            try await session.respond(to: "Hello")
        } throws: { error in
            guard case LanguageModelSession.GenerationError.assetsUnavailable = error else { return false }
            return true
        }
        #expect(session.transcript.count == 0)
    }
}
