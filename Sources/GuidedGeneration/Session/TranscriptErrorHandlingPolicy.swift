/// What a session's transcript keeps of a request that fails: nothing, the transcript going back
/// to what it was before the request (``revertTranscript``, the default), or everything the
/// request had added when it failed (``preserveTranscript``).
public struct TranscriptErrorHandlingPolicy: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case revert, preserve
    }

    let kind: Kind

    /// The transcript goes back to what it was before the request.
    public static let revertTranscript = TranscriptErrorHandlingPolicy(kind: .revert)
    /// The transcript keeps the prompt and what the model and the tools had added when the
    /// request failed; its last entry may be partially generated.
    public static let preserveTranscript = TranscriptErrorHandlingPolicy(kind: .preserve)
}
