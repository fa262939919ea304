import Foundation

extension PrivateCloudComputeLanguageModel {
    /// Why a request to the server model failed, beside the errors every model reports
    /// (``LanguageModelError``): the network, the app's allowance, or the service.
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible {
        /// The server could not be reached: what went wrong, for the developer.
        public typealias NetworkFailure = LanguageModelSession.GenerationError.Context

        /// The app's allowance of requests is used up.
        public struct QuotaLimitReached: Sendable {
            /// A way to raise the limit, when the system offers one.
            public var limitIncreaseSuggestion: QuotaUsage.LimitIncreaseSuggestion?
            /// When the allowance renews, when known.
            public var resetDate: Date?
            /// What went wrong, for the developer.
            public var debugDescription: String

            /// A used-up allowance, with how to raise it and when it renews when known.
            public init(limitIncreaseSuggestion: QuotaUsage.LimitIncreaseSuggestion? = nil, resetDate: Date? = nil, debugDescription: String) {
                self.limitIncreaseSuggestion = limitIncreaseSuggestion
                self.resetDate = resetDate
                self.debugDescription = debugDescription
            }
        }

        /// The service cannot answer now: what went wrong, for the developer.
        public typealias ServiceUnavailable = LanguageModelSession.GenerationError.Context

        /// The server could not be reached.
        case networkFailure(NetworkFailure)
        /// The app's allowance of requests is used up.
        case quotaLimitReached(QuotaLimitReached)
        /// The service cannot answer now.
        case serviceUnavailable(ServiceUnavailable)

        /// What went wrong, for the developer.
        public var debugDescription: String {
            switch self {
            case .networkFailure(let payload): payload.debugDescription
            case .quotaLimitReached(let payload): payload.debugDescription
            case .serviceUnavailable(let payload): payload.debugDescription
            }
        }

        /// What went wrong, for a person, and what to do.
        public var errorDescription: String? {
            switch self {
            case .networkFailure: "Private Cloud Compute could not be reached; check the network connection and try again."
            case .quotaLimitReached: "The allowance of Private Cloud Compute requests is used up; try again after it renews."
            case .serviceUnavailable: "Private Cloud Compute is not available now; try again later or use another model."
            }
        }
    }
}
