import Foundation
import Testing

@testable import GuidedGeneration

/// A tool's arguments that name an image of the conversation.
@Generable struct ImageArguments {
    var image: ImageReference
}

/// `ImageReference`: the model names an image by its label; the reference finds it in the
/// transcript.
@Suite struct ImageReferenceTests {
    let first = Transcript.ImageAttachment(imageURL: URL(string: "https://example.com/first.png")!)
    let second = Transcript.ImageAttachment(imageURL: URL(string: "https://example.com/second.png")!)

    @Test func aReferenceResolvesToTheLatestImageOfItsLabel() {
        let newer = Transcript.ImageAttachment(imageURL: URL(string: "https://example.com/newer.png")!)
        let transcript = Transcript(entries: [
            .prompt(Transcript.Prompt(segments: [
                .text(.init(content: "Compare.")), .attachment(.init(content: .image(first), label: "image-0")),
                .attachment(.init(content: .image(second), label: "image-1")),
            ])),
            .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "They differ."))])),
            .prompt(Transcript.Prompt(segments: [.attachment(.init(content: .image(newer), label: "image-0"))])),
        ])
        #expect(ImageReference(attachmentLabel: "image-1").resolve(in: transcript) == second)
        #expect(ImageReference(attachmentLabel: "image-0").resolve(in: transcript) == newer)
        #expect(ImageReference(attachmentLabel: "image-2").resolve(in: transcript) == nil)
    }

    @Test func aReferenceIsGeneratedAsAnObjectWithItsLabel() throws {
        let schema = try ImageArguments.generationSchema.jsonSchemaString()
        #expect(schema.contains("attachmentLabel"), "\(schema)")
        let arguments = try ImageArguments(GeneratedContent(json: #"{"image":{"attachmentLabel":"image-1"}}"#))
        #expect(arguments.image == ImageReference(attachmentLabel: "image-1"))
        #expect(arguments.image.generatedContent.jsonString == #"{"attachmentLabel":"image-1"}"#)
        let partial = try ImageReference.PartiallyGenerated(GeneratedContent(json: #"{"attachmentLabel":"ima"#))
        #expect(partial.attachmentLabel == "ima")
        #expect(try ImageReference.PartiallyGenerated(GeneratedContent(json: "{")).attachmentLabel == nil)
        #expect(throws: DecodingError.self) { try ImageReference(GeneratedContent(json: #"{"label":"x"}"#)) }
    }
}
