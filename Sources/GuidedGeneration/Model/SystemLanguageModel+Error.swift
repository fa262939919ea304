import Foundation

extension SystemLanguageModel {
    /// Why the system model could not answer, as FoundationModels 27 names it.
    ///
    /// The model here still reports a model it cannot fetch or load as
    /// ``LanguageModelSession/GenerationError/assetsUnavailable(_:)``, which code written for
    /// FoundationModels 26 catches; this type is here for code that catches Apple's newer
    /// spelling.
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible {
        /// The model's files are not available: what went wrong, for the developer.
        public typealias AssetsUnavailable = LanguageModelSession.GenerationError.Context

        /// The model's files are not available (not fetched yet, or not readable).
        case assetsUnavailable(AssetsUnavailable)

        /// What went wrong, for the developer.
        public var debugDescription: String {
            switch self {
            case .assetsUnavailable(let payload): payload.debugDescription
            }
        }

        /// What went wrong, for a person, and what to do.
        public var errorDescription: String? {
            switch self {
            case .assetsUnavailable: "The model is not available; fetch it (guided fetch-model) or name a model file that can be read."
            }
        }
    }
}
