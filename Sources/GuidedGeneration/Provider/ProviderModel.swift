import Foundation
import Synchronization

/// A ``LanguageModel`` as a session (or a server) holds it: its capabilities, and its executors,
/// made on first use and kept by configuration for as long as the holder lives.
package struct ProviderModel: Sendable {
    package let capabilities: LanguageModelCapabilities
    /// Runs a request on the model's executor.
    let respond: @Sendable (LanguageModelExecutorGenerationRequest, LanguageModelExecutorGenerationChannel) async throws -> Void
    /// Asks the executor to get ready for a transcript.
    let prewarm: @Sendable (Transcript) -> Void
    /// Does what a request needs before the model runs it, where the executor has such work
    /// (the local model compiles the request's grammar); blocks while it works.
    package let prepare: @Sendable (LanguageModelExecutorGenerationRequest) throws -> Void
    /// Whether the model reads data entries of a content type.
    let supportsDataEntryType: @Sendable (UTType) async throws -> Bool
    /// Whether the model reads data attachments of a content type.
    let supportsDataAttachmentType: @Sendable (UTType) async throws -> Bool

    /// The model, running on the executors of `executors` (one per executor type and
    /// configuration): a session keeps one store, so that every model it switches to keeps its
    /// executor, and the executor what it has computed.
    package init<Model: LanguageModel>(_ model: Model, executors: ExecutorStore = ExecutorStore()) {
        capabilities = model.capabilities
        respond = { request, channel in
            let executor = try executors.executor(Model.Executor.self, for: model.executorConfiguration)
            try await executor.respond(to: request, model: model, streamingInto: channel)
        }
        prepare = { request in
            guard let model = model as? SystemLanguageModel else { return }
            try executors.executor(SystemLanguageModel.Executor.self, for: model.executorConfiguration).prepare(request, model: model)
        }
        supportsDataEntryType = { type in try await model.supportsDataEntryType(type) }
        supportsDataAttachmentType = { type in try await model.supportsDataAttachmentType(type) }
        prewarm = { transcript in
            guard let executor = try? executors.executor(Model.Executor.self, for: model.executorConfiguration) else { return }
            executor.prewarm(model: model, transcript: transcript)
        }
    }
}

extension ProviderModel {
    /// Runs one turn: the executor in a task of its own, sending into a channel that this task
    /// reads until the executor is done, calling `onRead` after each event with the turn so far
    /// and the response's new content when the event changed it.
    package func turn(
        _ request: LanguageModelExecutorGenerationRequest, json: Bool, cancellation: CancellationFlag,
        onRead: (_ turn: ChannelTurn, _ content: GeneratedContent?) throws -> Void
    ) async throws -> ChannelTurn {
        let channel = LanguageModelExecutorGenerationChannel()
        let respond = self.respond
        let producer = Task {
            do {
                try await respond(request, channel)
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        var turn = ChannelTurn(json: json)
        do {
            try await withTaskCancellationHandler {
                for try await event in channel {
                    if cancellation.isCancelled { throw CancellationError() }
                    if case .data(let data) = event.kind, case .update(let entry) = data.action.storage,
                        try await supportsDataEntryType(entry.contentType) == false
                    {
                        throw LanguageModelError.unsupportedTranscriptContent(
                            .init(
                                unsupportedContent: [.data(entry)],
                                debugDescription: "The executor sent a data entry of type \(entry.contentType.identifier), which its model does not accept."))
                    }
                    let content = try turn.read(event)
                    try onRead(turn, content)
                }
            } onCancel: {
                producer.cancel()
            }
        } catch {
            producer.cancel()
            throw error
        }
        if cancellation.isCancelled || Task.isCancelled { throw CancellationError() }
        return turn
    }
}

/// The executors of a session's models, by executor type and configuration.
package final class ExecutorStore: Sendable {
    private struct Key: Hashable, @unchecked Sendable {
        let type: ObjectIdentifier
        /// The configuration, `Hashable` and `Sendable` as ``LanguageModelExecutor/Configuration`` requires.
        let configuration: AnyHashable
    }

    private let executors = Mutex<[Key: any LanguageModelExecutor]>([:])

    package init() {}

    /// The executor of type `Executor` for `configuration`, made when there is none yet.
    func executor<Executor: LanguageModelExecutor>(_ type: Executor.Type, for configuration: Executor.Configuration) throws -> Executor {
        let key = Key(type: ObjectIdentifier(type), configuration: AnyHashable(configuration))
        return try executors.withLock { executors in
            if let existing = executors[key] as? Executor { return existing }
            let made = try Executor(configuration: configuration)
            executors[key] = made
            return made
        }
    }
}
