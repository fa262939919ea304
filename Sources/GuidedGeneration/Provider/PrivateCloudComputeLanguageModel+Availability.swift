extension PrivateCloudComputeLanguageModel {
    /// Whether the server model can be used.
    public enum Availability: Equatable, Sendable {
        /// The model can be reached.
        case available
        /// The model cannot be used now, for this reason.
        case unavailable(UnavailableReason)

        /// Why the server model cannot be used.
        public enum UnavailableReason: Hashable, Sendable {
            /// This device cannot use Private Cloud Compute (on every platform this library
            /// runs on).
            case deviceNotEligible
            /// The system is not ready to reach it yet; kept for source compatibility, never
            /// reported here.
            case systemNotReady
        }
    }
}
