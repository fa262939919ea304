import Foundation

extension LanguageModelSession {
    /// A misuse of a session, as FoundationModels 27 reports it.
    ///
    /// A session here still reports a second request made while one is running as
    /// ``GenerationError/concurrentRequests(_:)``, which code written for FoundationModels 26
    /// catches; this type is here for code that catches Apple's newer spelling.
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible, Hashable {
        /// A request was made while the session was answering another.
        case concurrentRequests
        /// The transcript was changed while the session was answering a request.
        case transcriptMutationWhileResponding

        /// What went wrong, for the developer.
        public var debugDescription: String {
            switch self {
            case .concurrentRequests: "A request was made while the session was responding to another."
            case .transcriptMutationWhileResponding: "The transcript was changed while the session was responding."
            }
        }

        /// What went wrong, for a person, and what to do.
        public var errorDescription: String? {
            switch self {
            case .concurrentRequests: "The session is already responding to a request; wait until it is done, or use another session."
            case .transcriptMutationWhileResponding: "The transcript cannot change while the session responds; change it once the response is complete."
            }
        }
    }
}
