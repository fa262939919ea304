/// A value of the app's that a transcript can hold as an entry of its own (a
/// ``Transcript/DataEntry``), such as what a custom model produces beside its text.
///
/// The transcript keeps the portable form, so that it encodes and reads back where the type is
/// unknown; `init(_:)` makes the value again from it, and throws when the bytes are not one.
public protocol DataEntryRepresentable: Sendable {
    /// The value as a transcript entry.
    var transcriptRepresentation: Transcript.DataEntry { get }
    /// Makes the value from its transcript entry.
    /// - Throws: When the entry does not hold such a value.
    init(_ entry: Transcript.DataEntry) throws
}
