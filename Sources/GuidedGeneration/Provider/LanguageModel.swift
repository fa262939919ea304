/// A model a ``LanguageModelSession`` can run on: the embedded model, a local GGUF file, a served
/// model, or one a third party brings. The type is light (a name, a path, a URL); the work is done
/// by its ``Executor``, which the session makes from ``executorConfiguration`` and keeps for as
/// long as it lives.
public protocol LanguageModel: Sendable {
    /// What runs the model's requests.
    associatedtype Executor: LanguageModelExecutor where Executor.Model == Self
    /// What the model can do; the session refuses a request that needs more, without calling
    /// the executor.
    var capabilities: LanguageModelCapabilities { get }
    /// The configuration the session makes the executor from: one executor per distinct
    /// configuration per session.
    var executorConfiguration: Executor.Configuration { get }
    /// Whether the model reads transcript entries of data of `type` (``Transcript/DataEntry``):
    /// the session refuses a transcript that holds others, and an executor's data event of
    /// another type, with ``LanguageModelError/unsupportedTranscriptContent(_:)``. `false` unless
    /// the model says otherwise.
    nonisolated(nonsending) func supportsDataEntryType(_ type: UTType) async throws -> Bool
    /// Whether the model reads attachments of data of `type` (``Transcript/DataAttachment``):
    /// the session refuses a prompt or instructions that attach others, with
    /// ``LanguageModelError/unsupportedTranscriptContent(_:)``. `false` unless the model says otherwise.
    nonisolated(nonsending) func supportsDataAttachmentType(_ type: UTType) async throws -> Bool
}

extension LanguageModel {
    /// `false`: a model reads no data entries unless it says so.
    nonisolated(nonsending) public func supportsDataEntryType(_ type: UTType) async throws -> Bool { false }

    /// `false`: a model reads no data attachments unless it says so.
    nonisolated(nonsending) public func supportsDataAttachmentType(_ type: UTType) async throws -> Bool { false }
}

/// Runs the requests of a ``LanguageModel``: turns a transcript and options into events (text,
/// tool calls, usage) sent into a channel, which the session assembles into the transcript and
/// into the snapshots of a streamed response.
public protocol LanguageModelExecutor: Sendable {
    /// The key the session keeps executors by.
    associatedtype Configuration: Hashable, Sendable
    /// The model this executor runs.
    associatedtype Model: LanguageModel
    /// Makes an executor.
    init(configuration: Configuration) throws
    /// Loads assets or fills caches ahead of a request; best effort, and not guaranteed to run.
    func prewarm(model: Model, transcript: Transcript)
    /// Generates the next entry of `request.transcript` (a response, or tool calls), sending its
    /// parts into `channel` as they come. The channel finishes when this returns or throws.
    nonisolated(nonsending) func respond(
        to request: LanguageModelExecutorGenerationRequest, model: Model, streamingInto channel: LanguageModelExecutorGenerationChannel
    ) async throws
}

extension LanguageModelExecutor {
    /// Does nothing.
    public func prewarm(model: Model, transcript: Transcript) {}
}
