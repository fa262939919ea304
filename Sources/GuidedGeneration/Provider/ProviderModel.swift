import Foundation
import Synchronization

/// A ``LanguageModel`` as a session holds it: its capabilities, and its executors, made on first
/// use and kept by configuration for as long as the session lives.
struct ProviderModel: Sendable {
    let capabilities: LanguageModelCapabilities
    /// Runs a request on the model's executor.
    let respond: @Sendable (LanguageModelExecutorGenerationRequest, LanguageModelExecutorGenerationChannel) async throws -> Void
    /// Asks the executor to get ready for a transcript.
    let prewarm: @Sendable (Transcript) -> Void

    init<Model: LanguageModel>(_ model: Model) {
        let executors = ExecutorStore<Model.Executor>()
        capabilities = model.capabilities
        respond = { request, channel in
            let executor = try executors.executor(for: model.executorConfiguration)
            try await executor.respond(to: request, model: model, streamingInto: channel)
        }
        prewarm = { transcript in
            guard let executor = try? executors.executor(for: model.executorConfiguration) else { return }
            executor.prewarm(model: model, transcript: transcript)
        }
    }
}

/// The executors of one model in one session, by configuration.
final class ExecutorStore<Executor: LanguageModelExecutor>: Sendable {
    private let executors = Mutex<[Executor.Configuration: Executor]>([:])

    /// The executor of `configuration`, made when there is none yet.
    func executor(for configuration: Executor.Configuration) throws -> Executor {
        try executors.withLock { executors in
            if let existing = executors[configuration] { return existing }
            let made = try Executor(configuration: configuration)
            executors[configuration] = made
            return made
        }
    }
}
