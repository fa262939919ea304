import Foundation
import Synchronization
import Testing

@testable import GuidedGeneration

/// A value of the app's, attached as data of its content type.
struct Floorplan: DataAttachmentRepresentable, Equatable {
    static let contentType = UTType(exportedAs: "com.example.test-floorplan", conformingTo: .json)
    var rooms: [String]

    init(rooms: [String]) {
        self.rooms = rooms
    }

    init(_ attachment: Transcript.DataAttachment) throws {
        guard attachment.contentType == Self.contentType else { throw CocoaError(.coderInvalidValue) }
        rooms = try JSONDecoder().decode([String].self, from: attachment.content)
    }

    var transcriptRepresentation: Transcript.DataAttachment {
        Transcript.DataAttachment(
            contentType: Self.contentType, content: (try? JSONEncoder().encode(rooms)) ?? Data(),
            metadata: GeneratedContent(properties: ["unit": "m2"]))
    }
}

/// The requests a ``DataModel``'s executor answered.
final class RequestLog: Sendable {
    let requests = Mutex<[LanguageModelExecutorGenerationRequest]>([])

    func withLock<Result: Sendable>(_ body: (inout [LanguageModelExecutorGenerationRequest]) -> Result) -> Result {
        requests.withLock { body(&$0) }
    }
}

/// A model that accepts data of some types, whose executor answers with text and then sends the
/// data events it is given.
struct DataModel: LanguageModel {
    typealias Executor = DataExecutor

    var attachmentTypes: [UTType] = []
    var entryTypes: [UTType] = []
    var events: [LanguageModelExecutorGenerationChannel.Event] = []
    let requests = RequestLog()

    var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([]) }
    var executorConfiguration: Executor.Configuration { Executor.Configuration() }

    func supportsDataAttachmentType(_ type: UTType) async throws -> Bool { attachmentTypes.contains(type) }
    func supportsDataEntryType(_ type: UTType) async throws -> Bool { entryTypes.contains(type) }
}

struct DataExecutor: LanguageModelExecutor {
    typealias Model = DataModel
    struct Configuration: Hashable, Sendable {}

    init(configuration: Configuration) throws {}

    func respond(to request: LanguageModelExecutorGenerationRequest, model: DataModel, streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
        model.requests.withLock { $0.append(request) }
        await channel.send(.response(action: .appendText("Seen.", tokenCount: 1)))
        for event in model.events { await channel.send(event) }
    }
}

/// Data attachments and data entries (FoundationModels 27.2): the portable form of the app's
/// values, given only to models that accept their content types and refused to the others
/// before they are asked.
@Suite struct DataAttachmentTests {
    let plan = Floorplan(rooms: ["kitchen", "hall"])

    @Test func anAttachedValueIsDataOfItsTypeAndComesBack() throws {
        let prompt = Prompt {
            "Which room is larger?"
            Attachment(plan).label("plan")
        }
        guard case .attachment(let segment) = prompt.transcriptSegments.last, case .data(let data) = segment.content else {
            Issue.record("no data attachment in \(prompt.transcriptSegments)")
            return
        }
        #expect(segment.label == "plan")
        #expect(data.contentType == Floorplan.contentType)
        #expect(data.metadata.jsonString == #"{"unit":"m2"}"#)
        #expect(try Floorplan(data) == plan)
        #expect(prompt.transcriptSegments.text == "Which room is larger?", "data is not text")
    }

    @Test func aModelThatAcceptsTheTypeReceivesTheAttachment() async throws {
        let model = DataModel(attachmentTypes: [Floorplan.contentType])
        let session = LanguageModelSession(model: model)
        let response = try await session.respond {
            "Which room is larger?"
            Attachment(plan)
        }
        #expect(response.content == "Seen.")
        let request = try #require(model.requests.withLock { $0.first })
        guard case .prompt(let prompt) = request.transcript.last, let data = prompt.segments.dataAttachments.first else {
            Issue.record("the request's prompt holds no data attachment")
            return
        }
        #expect(try Floorplan(data) == plan)
    }

    @Test func anyOtherModelRefusesItBeforeItIsAsked() async throws {
        let model = DataModel(attachmentTypes: [.png])
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        await #expect {
            try await session.respond {
                "Which room is larger?"
                Attachment(plan)
            }
        } throws: { error in
            guard case LanguageModelError.unsupportedTranscriptContent(let refusal) = error else { return false }
            return refusal.unsupportedContent.count == 1 && refusal.debugDescription.contains(Floorplan.contentType.identifier)
        }
        #expect(model.requests.withLock { $0.isEmpty })
        #expect(session.transcript.count == 1, "the refused request left nothing")
        // The local model reads no data either: an attachment of any type is refused.
        let local = LanguageModelSession(model: SystemLanguageModel(backend: ScriptedModel(replies: ["Kitchen."])))
        await #expect(throws: LanguageModelError.self) {
            try await local.respond {
                "Which room is larger?"
                Attachment(plan)
            }
        }
    }

    @Test func dataEntriesInTheHistoryNeedAModelThatAcceptsThem() async throws {
        let entry = Transcript.DataEntry(contentType: .json, content: Data("[1,2]".utf8))
        let history = Transcript(entries: [.data(entry)])
        let refusing = DataModel()
        await #expect {
            try await LanguageModelSession(model: refusing, transcript: history).respond(to: "Sum them.")
        } throws: { error in
            guard case LanguageModelError.unsupportedTranscriptContent(let refusal) = error else { return false }
            return refusal.unsupportedContent.first?.id == entry.id
        }
        #expect(refusing.requests.withLock { $0.isEmpty })
        let accepting = DataModel(entryTypes: [.json])
        _ = try await LanguageModelSession(model: accepting, transcript: history).respond(to: "Sum them.")
        #expect(accepting.requests.withLock { $0.first?.transcript.first } == .data(entry))
    }

    @Test func anExecutorsDataEventsBecomeEntriesBeforeTheResponse() async throws {
        typealias Event = LanguageModelExecutorGenerationChannel.Event
        let chart = UTType(exportedAs: "com.example.test-chart", conformingTo: .data)
        let model = DataModel(
            entryTypes: [chart],
            events: [
                Event.data(action: .update(contentType: chart, content: Data([1]))),
                // Without an id, a data event right after another replaces its entry.
                Event.data(action: .update(contentType: chart, content: Data([1, 2]), metadata: GeneratedContent(properties: ["bars": 2]))),
                Event.data(entryID: "second", action: .update(contentType: chart, content: Data([9]))),
                Event.data(entryID: "second", action: .update(contentType: chart, content: Data([9, 9]))),
                Event.response(action: .appendText(" Done.", tokenCount: 1)),
                // After an event of another kind, a data event without an id makes a new entry.
                Event.data(action: .update(contentType: chart, content: Data([7]))),
            ])
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "Chart it.")
        #expect(response.content == "Seen. Done.")
        let kinds = session.transcript.map { entry -> String in
            if case .data(let data) = entry { return "data \(Array(data.content))" }
            if case .response = entry { return "response" }
            return "prompt"
        }
        #expect(kinds == ["prompt", "data [1, 2]", "data [9, 9]", "data [7]", "response"])
        guard case .data(let second) = session.transcript[2], case .data(let first) = session.transcript[1] else { return }
        #expect(second.id == "second")
        #expect(first.metadata.jsonString == #"{"bars":2}"#)
        #expect(response.transcriptEntries.count == 5)
    }

    @Test func aDataEventOfATypeTheModelRefusesFailsTheRequest() async throws {
        let model = DataModel(events: [.data(action: .update(contentType: .pdf, content: Data([0x25])))])
        let session = LanguageModelSession(model: model)
        await #expect {
            try await session.respond(to: "Make a report.")
        } throws: { error in
            guard case LanguageModelError.unsupportedTranscriptContent(let refusal) = error, case .data(let entry) = refusal.unsupportedContent.first else {
                return false
            }
            return entry.contentType == .pdf
        }
        #expect(session.transcript.isEmpty)
    }

    @Test func dataRoundTripsThroughAnEncodedTranscript() throws {
        let transcript = Transcript(entries: [
            .prompt(Transcript.Prompt(segments: [.text(.init(content: "Plan:")), .attachment(.init(content: .data(plan.transcriptRepresentation), label: "plan"))])),
            .data(Transcript.DataEntry(id: "d", contentType: .json, content: Data("{}".utf8), metadata: GeneratedContent(properties: ["b": 1, "a": 2]))),
        ])
        let encoded = try JSONEncoder().encode(transcript)
        let decoded = try JSONDecoder().decode(Transcript.self, from: encoded)
        #expect(decoded == transcript)
        guard case .data(let entry) = decoded.last else { return }
        #expect(entry.metadata.jsonString == #"{"b":1,"a":2}"#, "metadata keeps its order")
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""contentType":"public.json""#))
    }

    @Test func aServedModelRefusesData() {
        let withAttachment = Transcript.Entry.prompt(Transcript.Prompt(segments: [.attachment(.init(content: .data(plan.transcriptRepresentation)))]))
        #expect(ChatCompletionRequest.refuses(withAttachment))
        #expect(ChatCompletionRequest.refuses(.data(Transcript.DataEntry(contentType: .json, content: Data()))))
    }
}
