import Foundation

extension PrivateCloudComputeLanguageModel {
    /// How much of its allowance of server requests the app has used, and when it renews.
    public struct QuotaUsage: Sendable {
        /// Whether the limit is reached.
        public enum Status: Sendable {
            /// Requests can still be made.
            case belowLimit(BelowLimit)
            /// No request can be made until the allowance renews.
            case limitReached(LimitReached)

            /// The allowance is not used up.
            public struct BelowLimit: Sendable {
                /// Whether few requests are left.
                public var isApproachingLimit: Bool
            }

            /// The allowance is used up.
            public struct LimitReached: Sendable {}
        }

        /// Something the app can offer a person whose allowance is used up: a way to raise it.
        public struct LimitIncreaseSuggestion: Sendable {
            /// Shows the suggestion to the person. Nothing to show on this platform, which
            /// never offers one.
            public func show() {}
        }

        /// Where the allowance stands.
        public var status: Status
        /// A way to raise the limit, when the system offers one.
        public var limitIncreaseSuggestion: LimitIncreaseSuggestion?
        /// When the allowance renews, when known.
        public var resetDate: Date?

        /// Whether ``status`` is ``Status/limitReached(_:)``.
        public var isLimitReached: Bool {
            if case .limitReached = status { true } else { false }
        }
    }
}
