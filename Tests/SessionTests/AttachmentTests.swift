import Foundation
import PartialJSON
import Testing

@testable import GuidedGeneration

/// Image attachments: a model that reads images receives them (a served model as OpenAI
/// `image_url` parts); any other model refuses them through its capabilities, before it is asked.
@Suite struct AttachmentTests {
    let image = Transcript.ImageAttachment(data: Data([0x89, 0x50, 0x4E, 0x47]), contentType: "image/png")

    @Test func aModelThatReadsNoImagesRefusesThemBeforeItIsAsked() async throws {
        let model = ScriptedModel(replies: ["A cat."])
        let session = session(model)
        let prompt = Prompt {
            "What is in this picture?"
            image
        }
        await #expect {
            try await session.respond(to: prompt)
        } throws: { error in
            guard case LanguageModelError.unsupportedCapability(let refusal) = error else { return false }
            return refusal.capability == .vision
        }
        #expect(model.evaluatedTokenCount == 0)
        #expect(session.transcript.count == 1, "only the instructions: the refused request left nothing")
    }

    @Test func aServedModelReceivesImagesAsContentParts() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("attachment-\(UUID().uuidString).jpg")
        try Data([0xFF, 0xD8, 0xFF]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let prompt = Transcript.Prompt(segments: [
            .text(.init(content: "Compare these.")),
            .attachment(.init(content: .image(image), label: "first")),
            .attachment(.init(content: .image(Transcript.ImageAttachment(imageURL: file)))),
            .attachment(.init(content: .image(Transcript.ImageAttachment(imageURL: URL(string: "https://example.com/b.webp")!)))),
        ])
        let messages = try ChatCompletionRequest.messages(of: Transcript(entries: [.prompt(prompt)]))
        let parts = try #require(messages.first?["content"]?.arrayValue)
        #expect(messages.first?["role"]?.stringValue == "user")
        #expect(parts.count == 4)
        #expect(parts[0]["text"]?.stringValue == "Compare these.")
        #expect(parts[1]["image_url"]?["url"]?.stringValue == "data:image/png;base64,iVBORw==")
        #expect(parts[2]["image_url"]?["url"]?.stringValue == "data:image/jpeg;base64,/9j/")
        #expect(parts[3]["image_url"]?["url"]?.stringValue == "https://example.com/b.webp")
    }

    @Test func anUnreadableImageIsATypedError() {
        let missing = Transcript.ImageAttachment(imageURL: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).png"))
        let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.attachment(.init(content: .image(missing)))]))
        #expect(ChatCompletionRequest.refuses(prompt))
    }

    @Test func aServedModelSaysWhetherItReadsImages() {
        let url = URL(string: "http://127.0.0.1:1/v1")!
        #expect(!OpenAICompatibleLanguageModel(baseURL: url, model: "m").capabilities.contains(.vision))
        #expect(OpenAICompatibleLanguageModel(baseURL: url, model: "m", supportsImages: true).capabilities.contains(.vision))
    }

    /// `Attachment(imageURL:)` in a prompt builder, labelled, as Apple's code writes it: a served
    /// model that reads images gets it as an `image_url` part; the label stays in the transcript.
    @Test func anAttachmentInAPromptBuilderIsAnImageSegment() throws {
        let url = URL(string: "https://example.com/cat.png")!
        let prompt = Prompt {
            "What is in this picture?"
            Attachment<ImageAttachmentContent>(imageURL: url).label("image-0")
            Attachment(data: Data([0x89, 0x50, 0x4E, 0x47]), contentType: "image/png")
        }
        let segments = prompt.transcriptSegments
        #expect(segments.count == 3)
        guard case .attachment(let first) = segments[1], case .attachment(let second) = segments[2] else {
            Issue.record("no attachments in \(segments)")
            return
        }
        #expect(first.label == "image-0" && first.content == .image(Transcript.ImageAttachment(imageURL: url)))
        #expect(second.label == nil && second.content == .image(image))
        let entry = Transcript.Entry.prompt(Transcript.Prompt(segments: segments))
        let parts = try #require(try ChatCompletionRequest.messages(of: Transcript(entries: [entry])).first?["content"]?.arrayValue)
        #expect(parts.compactMap { $0["image_url"]?["url"]?.stringValue } == ["https://example.com/cat.png", "data:image/png;base64,iVBORw=="])
    }

    /// An image in the instructions is refused by a model that reads no images, as one in a
    /// prompt is; a served model takes images in prompts only and says so.
    @Test func anAttachmentInTheInstructionsIsCheckedToo() async throws {
        let instructions = Instructions {
            "Describe pictures like this one."
            Attachment(imageURL: URL(string: "https://example.com/style.png")!)
        }
        let model = ScriptedModel(replies: ["OK"])
        let session = LanguageModelSession(model: SystemLanguageModel(backend: model), instructions: instructions)
        await #expect {
            try await session.respond(to: "Go.")
        } throws: { error in
            guard case LanguageModelError.unsupportedCapability(let refusal) = error else { return false }
            return refusal.capability == .vision
        }
        #expect(model.evaluatedTokenCount == 0)
        let entry = Transcript.Entry.instructions(Transcript.Instructions(segments: instructions.transcriptSegments, toolDefinitions: []))
        #expect(ChatCompletionRequest.refuses(entry))
    }

    @Test func attachmentsSurviveTheTranscriptsCoding() throws {
        let entry = Transcript.Entry.prompt(Transcript.Prompt(segments: [.attachment(.init(content: .image(image), label: "logo"))]))
        let transcript = Transcript(entries: [entry])
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(transcript))
        #expect(decoded == transcript)
    }
}

extension ChatCompletionRequest {
    /// Whether a served model's request refuses `entry` as content it cannot read
    /// (``LanguageModelError/unsupportedTranscriptContent(_:)``).
    static func refuses(_ entry: Transcript.Entry) -> Bool {
        do {
            _ = try messages(of: Transcript(entries: [entry]))
            return false
        } catch LanguageModelError.unsupportedTranscriptContent {
            return true
        } catch {
            return false
        }
    }
}
