/// A value of the app's that a prompt can carry as data of a content type (a
/// ``Transcript/DataAttachment``), for a model that accepts that type:
///
/// ```swift
/// import Foundation
/// import GuidedGeneration
///
/// struct Floorplan: DataAttachmentRepresentable {
///     static let contentType = UTType(exportedAs: "com.example.floorplan", conformingTo: .json)
///     var rooms: [String]
///
///     init(rooms: [String]) { self.rooms = rooms }
///
///     init(_ attachment: Transcript.DataAttachment) throws {
///         rooms = try JSONDecoder().decode([String].self, from: attachment.content)
///     }
///
///     var transcriptRepresentation: Transcript.DataAttachment {
///         Transcript.DataAttachment(contentType: Self.contentType, content: (try? JSONEncoder().encode(rooms)) ?? Data())
///     }
/// }
///
/// let prompt = Prompt {
///     "Which room is the largest?"
///     Attachment(Floorplan(rooms: ["kitchen", "hall"]))
/// }
/// print(prompt)
/// ```
///
/// The transcript keeps the portable form, so that it encodes and reads back where the type is
/// unknown; `init(_:)` makes the value again from it, and throws when the bytes are not one.
public protocol DataAttachmentRepresentable: Sendable {
    /// The value as a data attachment.
    var transcriptRepresentation: Transcript.DataAttachment { get }
    /// Makes the value from its data attachment.
    /// - Throws: When the attachment does not hold such a value.
    init(_ attachment: Transcript.DataAttachment) throws
}
