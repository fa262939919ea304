/// Apple's server model, run in Private Cloud Compute: present so that code written for Apple's
/// platforms compiles, and unavailable on every platform this library runs on. A session made
/// with it refuses each request with
/// ``LanguageModelSession/GenerationError/assetsUnavailable(_:)``; check ``availability`` first
/// and fall back to another model, as Apple's own code does on a device that cannot reach it.
///
/// ```swift
/// import GuidedGeneration
///
/// let cloud = PrivateCloudComputeLanguageModel()
/// let session: LanguageModelSession
/// if cloud.isAvailable {
///     session = LanguageModelSession(model: cloud)
/// } else {
///     session = LanguageModelSession()
/// }
/// print(session.isResponding)
/// ```
public final class PrivateCloudComputeLanguageModel: LanguageModel {
    /// The server model.
    public init() {}

    /// Always unavailable here: this platform has no connection to Private Cloud Compute.
    public var availability: Availability { .unavailable(.deviceNotEligible) }

    /// How much of the app's allowance of requests is used: below the limit here, where no
    /// request ever reaches the server.
    public var quotaUsage: QuotaUsage { QuotaUsage(status: .belowLimit(.init(isApproachingLimit: false))) }

    /// Whether the model can be used: never here.
    public var isAvailable: Bool { false }

    /// The context the server model has, in tokens (32,768, as Apple documents it).
    public var contextSize: Int {
        get async throws { 32_768 }
    }

    /// What the server model can do, as Apple documents it; a session checks availability
    /// through the executor, which refuses every request here.
    public var capabilities: LanguageModelCapabilities { LanguageModelCapabilities([.toolCalling, .guidedGeneration, .reasoning]) }

    public var executorConfiguration: Executor.Configuration { Executor.Configuration() }

    /// Refuses every request: the model cannot be reached from this platform.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = PrivateCloudComputeLanguageModel

        /// Nothing to configure.
        public struct Configuration: Hashable, Sendable {}

        public init(configuration: Configuration) {}

        public nonisolated(nonsending) func respond(
            to request: LanguageModelExecutorGenerationRequest, model: PrivateCloudComputeLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            throw LanguageModelSession.GenerationError.assetsUnavailable(
                .init(debugDescription: "Private Cloud Compute cannot be reached from this platform; use SystemLanguageModel or a served model."))
        }
    }
}
