import Foundation
import Testing

@testable import GuidedGeneration

/// A video, as the app declares its own kind of segment.
struct VideoSegment: Transcript.CustomSegment {
    var id = UUID().uuidString
    var content: URL
}

/// A segment whose content is a structure of the app's.
struct ChapterSegment: Transcript.CustomSegment {
    struct Chapter: Codable, Equatable, Sendable {
        var title: String
        var start: Int
    }

    var id = "chapter-1"
    var content: Chapter
}

/// Custom segments: the app's own types of content, conformed to `Transcript.CustomSegment`,
/// go through prompt builders into the transcript, reach a custom model as they are, and are
/// kept (as stored segments) when the transcript is encoded.
@Suite struct CustomSegmentTests {
    let video = VideoSegment(id: "video-1", content: URL(string: "https://example.com/talk.mp4")!)

    @Test func theDescriptionIsTheContentAsText() {
        #expect(video.description == "https://example.com/talk.mp4", "a URL encodes as a JSON string")
        #expect(ChapterSegment(content: .init(title: "Intro", start: 0)).description == #"{"start":0,"title":"Intro"}"#)
    }

    @Test func segmentsAreEqualWhenOfOneTypeAndEqual() {
        let same = VideoSegment(id: "video-1", content: video.content)
        let other = VideoSegment(id: "video-2", content: video.content)
        #expect(video.isEqual(to: same))
        #expect(!video.isEqual(to: other))
        #expect(!video.isEqual(to: Transcript.StoredCustomSegment(id: "video-1", kind: "VideoSegment", content: GeneratedContent("x"))))
        #expect(Transcript.Segment.custom(video) == .custom(same))
        #expect(Transcript.Segment.custom(video) != .custom(other))
        #expect(Transcript.Segment.custom(video) != .text(.init(id: "video-1", content: video.description)))
    }

    @Test func aPromptBuilderTakesThemAndACustomModelReceivesThem() async throws {
        let model = ReplayModel(turns: [.text("A talk.")])
        let session = LanguageModelSession(model: model)
        _ = try await session.respond {
            "What is this video about?"
            video
        }
        let request = try #require(model.log.requests.withLock { $0.first })
        guard case .prompt(let prompt) = request.transcript.last else {
            Issue.record("no prompt in \(request.transcript)")
            return
        }
        #expect(prompt.segments.count == 2)
        guard case .custom(let segment) = prompt.segments.last else {
            Issue.record("no custom segment in \(prompt.segments)")
            return
        }
        #expect((segment as? VideoSegment) == video, "the executor gets the app's own value")
    }

    @Test func theLocalModelLeavesThemOutOfTheConversation() async throws {
        let model = ScriptedModel(replies: ["OK"])
        _ = try await session(model).respond(to: Prompt {
            "Describe it."
            video
        })
        let conversation = try #require(model.conversations.first)
        #expect(conversation.contains("Describe it."))
        #expect(!conversation.contains("talk.mp4"))
    }

    @Test func aServedModelRefusesThem() {
        let prompt = Transcript.Entry.prompt(Transcript.Prompt(segments: [.text(.init(content: "Describe it.")), .custom(video)]))
        #expect(ChatCompletionRequest.refuses(prompt))
    }

    @Test func theyAreKeptWhenTheTranscriptIsEncoded() throws {
        let chapter = ChapterSegment(content: .init(title: "Intro", start: 0))
        let transcript = Transcript(entries: [
            .instructions(Transcript.Instructions(segments: [.custom(chapter)], toolDefinitions: [])),
            .prompt(Transcript.Prompt(segments: [.text(.init(content: "Watch.")), .custom(video)])),
        ])
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(transcript))
        guard case .instructions(let instructions) = decoded.first, case .custom(let first) = instructions.segments.first,
            case .prompt(let prompt) = decoded.last, case .custom(let second) = prompt.segments.last
        else {
            Issue.record("the custom segments were lost: \(decoded)")
            return
        }
        let stored = try #require(first as? Transcript.StoredCustomSegment)
        #expect(stored.id == "chapter-1")
        #expect(stored.kind.hasSuffix("ChapterSegment"))
        #expect(try stored.content.value(String.self, forProperty: "title") == "Intro")
        #expect(stored.description == chapter.description)
        #expect(second.id == "video-1" && second.description == "https://example.com/talk.mp4")
        // Stored segments encode as they decoded: a second round changes nothing.
        let again = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(decoded))
        #expect(again == decoded)
    }

    /// An executor adds attachments and custom segments to its response; an attachment it
    /// removes is gone, a custom segment it updates is replaced where it was.
    @Test func anExecutorsSegmentsJoinTheResponse() async throws {
        let image = Transcript.ImageAttachment(imageURL: URL(string: "https://example.com/chart.png")!)
        let draft = Transcript.ImageAttachment(imageURL: URL(string: "https://example.com/draft.png")!)
        let final = VideoSegment(id: "video-1", content: URL(string: "https://example.com/final.mp4")!)
        let model = ReplayModel(turns: [
            .withSegments("Here it is.", [
                .addAttachmentSegment(.init(id: "draft", content: .image(draft))),
                .updateCustomSegment(video),
                .addAttachmentSegment(.init(id: "chart", content: .image(image), label: "chart")),
                .removeAttachmentSegment(id: "draft"),
                .updateCustomSegment(final),
            ])
        ])
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "Make a chart and a video.")
        #expect(response.content == "Here it is.")
        guard case .response(let entry) = session.transcript.last else {
            Issue.record("no response in \(session.transcript)")
            return
        }
        #expect(entry.segments.count == 3)
        #expect(entry.segments.dropFirst().map(\.id) == ["video-1", "chart"])
        #expect(entry.segments.last == .attachment(.init(id: "chart", content: .image(image), label: "chart")))
        #expect(entry.segments[1] == .custom(final))
    }

    @Test func instructionsTakeThemToo() {
        let instructions = Instructions {
            "Answer about the video."
            video
        }
        #expect(instructions.transcriptSegments.count == 2)
        #expect(instructions.transcriptSegments.last == .custom(video))
    }
}
