import Foundation
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
        #expect(try await model.contextSize == 32_768)
        let session = LanguageModelSession(model: model)
        await #expect {
            try await session.respond(to: "Hello")
        } throws: { error in
            guard case LanguageModelSession.GenerationError.assetsUnavailable = error else { return false }
            return true
        }
        #expect(session.transcript.count == 0)
    }

    /// What the app's code reads of the server model: its own reasons for being unavailable,
    /// its quota, and its errors, as Apple's code switches over them.
    @Test func privateCloudComputeReportsQuotaAndErrorsAsApplesCodeReadsThem() {
        let model = PrivateCloudComputeLanguageModel()
        func reason(_ availability: PrivateCloudComputeLanguageModel.Availability) -> String {
            switch availability {
            case .available: "available"
            case .unavailable(.deviceNotEligible): "device not eligible"
            case .unavailable(.systemNotReady): "system not ready"
            }
        }
        #expect(reason(model.availability) == "device not eligible")
        #expect(reason(.unavailable(.systemNotReady)) == "system not ready")
        #expect(!model.quotaUsage.isLimitReached)
        guard case .belowLimit(let below) = model.quotaUsage.status else {
            Issue.record("no request was made, so the quota is not reached")
            return
        }
        #expect(!below.isApproachingLimit)
        #expect(model.quotaUsage.resetDate == nil && model.quotaUsage.limitIncreaseSuggestion == nil)
        let reached = PrivateCloudComputeLanguageModel.QuotaUsage(status: .limitReached(.init()), resetDate: Date(timeIntervalSince1970: 0))
        #expect(reached.isLimitReached)

        let errors: [PrivateCloudComputeLanguageModel.Error] = [
            .networkFailure(.init(debugDescription: "offline")),
            .quotaLimitReached(.init(resetDate: Date(timeIntervalSince1970: 60), debugDescription: "used up")),
            .serviceUnavailable(.init(debugDescription: "down")),
        ]
        #expect(errors.map(\.debugDescription) == ["offline", "used up", "down"])
        #expect(errors.allSatisfy { ($0.errorDescription ?? "").contains("Private Cloud Compute") })
        if case .quotaLimitReached(let payload) = errors[1] {
            #expect(payload.resetDate == Date(timeIntervalSince1970: 60) && payload.limitIncreaseSuggestion == nil)
        }
        let thrown: any Error = errors[2]
        #expect((thrown as? PrivateCloudComputeLanguageModel.Error)?.debugDescription == "down")
    }

    @Test func aStructuredSegmentNamesItsSchema() {
        var segment = Transcript.StructuredSegment(id: "s", schemaName: "Pet", content: GeneratedContent("Rex"))
        #expect(segment.schemaName == "Pet" && segment.source == "Pet" && segment.id == "s")
        segment.schemaName = "Cat"
        #expect(segment == Transcript.StructuredSegment(id: "s", source: "Cat", content: GeneratedContent("Rex")))
    }

    @Test func theSessionsOwnErrorsAreDistinctAndDescribed() {
        let errors: Set<LanguageModelSession.Error> = [.concurrentRequests, .transcriptMutationWhileResponding, .concurrentRequests]
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { ($0.errorDescription ?? "").hasPrefix("The ") })
        #expect(Set(errors.map(\.debugDescription)).count == 2)
        let thrown: any Error = LanguageModelSession.Error.transcriptMutationWhileResponding
        #expect(thrown as? LanguageModelSession.Error == .transcriptMutationWhileResponding)
    }

    @Test func theSystemModelsErrorCarriesItsDescription() {
        let error = SystemLanguageModel.Error.assetsUnavailable(.init(debugDescription: "No model file."))
        #expect(error.debugDescription == "No model file.")
        #expect(error.errorDescription?.contains("fetch") == true)
        let thrown: any Error = error
        guard case .assetsUnavailable(let payload)? = thrown as? SystemLanguageModel.Error else {
            Issue.record("not the system model's error: \(thrown)")
            return
        }
        #expect(payload.debugDescription == "No model file.")
    }

    @Test func usageTotalsInputAndOutput() {
        let usage = LanguageModelSession.Usage(
            input: .init(totalTokenCount: 40, cachedTokenCount: 8), output: .init(totalTokenCount: 12, reasoningTokenCount: 5))
        #expect(usage.totalTokenCount == 52)
        #expect(usage.output.reasoningTokenCount == 5)
        #expect(LanguageModelSession.Usage.zero.totalTokenCount == 0)
    }
}
