import ConstrainedDecoding
import Foundation
import LlamaInference
import Synchronization

/// The language model sessions run on: by default the embedded Qwen2.5-Coder-1.5B-Instruct
/// (Apache-2.0), fetched on first use into `$GUIDED_CACHE` (else `~/.cache/guided`); any
/// Llama-family GGUF file or known model by name with
/// ``init(modelPath:contextSize:chatTemplate:threadCount:)``; or any ``LanguageModelBackend``.
public final class SystemLanguageModel: Sendable {
    /// Whether the model can be used.
    public enum Availability: Equatable, Sendable {
        /// The model is ready.
        case available
        /// The model cannot be used now, for this reason.
        case unavailable(UnavailableReason)

        /// Why the model cannot be used, under the name Apple's framework also gives it.
        public typealias UnavailableReason = SystemLanguageModel.UnavailableReason
    }

    /// Why the model cannot be used.
    public enum UnavailableReason: Hashable, Sendable {
        /// The model cannot run on this machine (its file is not a model this library runs).
        case deviceNotEligible
        /// Kept for source compatibility; never reported here.
        case appleIntelligenceNotEnabled
        /// The model's file is not on disk yet (the default model is fetched on first use).
        case modelNotReady
    }

    /// What the model is used for.
    public struct UseCase: Equatable, Sendable {
        let name: String
        /// General-purpose prompting.
        public static let general = UseCase(name: "general")
        /// Tagging and extracting content.
        public static let contentTagging = UseCase(name: "contentTagging")
    }

    /// How generated content is checked for safety. The local model applies no guardrails of its
    /// own; the setting is kept so that code written for other platforms compiles.
    public struct Guardrails: Sendable {
        let permitsContentTransformations: Bool
        /// The default guardrails.
        public static let `default` = Guardrails(permitsContentTransformations: false)
        /// Guardrails that allow transforming content the model would otherwise refuse.
        public static let permissiveContentTransformations = Guardrails(permitsContentTransformations: true)
    }

    /// The embedded default model.
    public static let `default` = SystemLanguageModel(backend: EmbeddedModel(path: nil, contextSize: 4096, templateName: nil, threadCount: defaultThreadCount))

    /// The use case the model was made for.
    public let useCase: UseCase
    /// The guardrails the model was made with.
    public let guardrails: Guardrails
    let backend: any LanguageModelBackend
    private let loaded = Mutex<ModelRuntime?>(nil)

    /// Creates the default model for a use case.
    public convenience init(useCase: UseCase = .general, guardrails: Guardrails = Guardrails.default) {
        self.init(backend: SystemLanguageModel.default.backend, useCase: useCase, guardrails: guardrails)
    }

    /// A model in a GGUF file: architecture `llama`, `qwen2`, `qwen3`, `phi3` or `gemma3`, with weights of
    /// any common type (K-quants included) and a byte-level BPE or SentencePiece tokenizer.
    /// `modelPath` may also name a known model (`qwen2.5-coder-0.5b`, `qwen2.5-coder-1.5b`,
    /// `smollm2-135m-instruct`, `gemma3-270m`), fetched into the model cache on first use.
    /// `chatTemplate` names a built-in template (`chatml`, `gemma`, `llama3`, `phi`) to use instead
    /// of the file's own, for a file without one or whose own the Jinja interpreter cannot run. `contextSize` caps the context; the file's own length
    /// (`ARCH.context_length`) caps it too.
    /// With `adapter`, its LoRA changes apply to the model's products.
    public convenience init(
        modelPath: String, contextSize: Int = 4096, chatTemplate: String? = nil, threadCount: Int = SystemLanguageModel.defaultThreadCount,
        adapter: Adapter? = nil
    ) {
        self.init(
            backend: EmbeddedModel(
                path: modelPath, contextSize: contextSize, templateName: chatTemplate, threadCount: threadCount, adapter: adapter?.lora))
    }

    /// A model run by any backend.
    public init(backend: any LanguageModelBackend, useCase: UseCase = .general, guardrails: Guardrails = Guardrails.default) {
        self.backend = backend
        self.useCase = useCase
        self.guardrails = guardrails
    }

    /// How many threads the embedded model uses by default: every core the process may use.
    public static var defaultThreadCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Whether the model can be used now: `.unavailable(.modelNotReady)` while its file is not
    /// on disk (the default model is fetched by the first request), `.deviceNotEligible` when it
    /// was found but cannot run here.
    public var availability: Availability {
        if loaded.withLock({ $0 != nil }) { return .available }
        return backend.availability
    }

    /// Whether ``availability`` is `.available`.
    public var isAvailable: Bool { availability == .available }

    /// The languages the model understands.
    public var supportedLanguages: Set<Locale.Language> { [Locale.Language(identifier: "en")] }

    /// Whether the model understands the language of `locale`.
    public func supportsLocale(_ locale: Locale = Locale.current) -> Bool {
        guard let code = locale.language.languageCode else { return false }
        return supportedLanguages.contains { $0.languageCode == code }
    }

    /// How many tokens a session holds: instructions, transcript, prompt and response together.
    /// Once the model is loaded, the option it was made with capped at the context the model
    /// was trained for (Gemma 3 270M: 32,768; SmolLM2: 8,192); before, the option.
    public var contextSize: Int { loaded.withLock { $0?.contextSize } ?? backend.contextSize }

    /// Loads the model now (fetching the default model on first use) instead of at the first
    /// request; `progress` receives lines to show a person waiting.
    /// - Throws: ``LanguageModelSession/GenerationError/assetsUnavailable(_:)``.
    public func load(progress: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Swift.Error>) in
            Thread.detachNewThread { [self] in
                continuation.resume(with: Result { _ = try runtime(progress: progress) })
            }
        }
    }


    /// The model, loaded on first use (which may fetch the default model).
    /// - Throws: ``LanguageModelSession/GenerationError/assetsUnavailable(_:)`` when it cannot be
    ///   fetched or loaded.
    func runtime(progress: @Sendable (String) -> Void = { _ in }) throws -> ModelRuntime {
        try loaded.withLock { runtime in
            if let runtime { return runtime }
            do {
                let model = try backend.load(progress: progress)
                let made = ModelRuntime(model: model, contextSize: min(backend.contextSize, model.trainedContextLength ?? .max))
                runtime = made
                return made
            } catch {
                throw LanguageModelSession.GenerationError.assetsUnavailable(
                    .init(debugDescription: "The model could not be loaded: \(error)"))
            }
        }
    }
}
