import Foundation

extension LanguageModelSession {
    /// Why a response could not be generated.
    public enum GenerationError: Swift.Error, LocalizedError, Sendable {
        /// What happened, for people reading logs.
        public struct Context: Sendable {
            /// A description of what happened.
            public let debugDescription: String

            /// Creates a context.
            public init(debugDescription: String) {
                self.debugDescription = debugDescription
            }
        }

        /// A refusal by the model to answer, with its explanation.
        public struct Refusal: Sendable {
            /// The transcript entries of the refused response.
            public let transcriptEntries: [Transcript.Entry]

            /// Creates a refusal from the entries of the refused response.
            public init(transcriptEntries: [Transcript.Entry]) {
                self.transcriptEntries = transcriptEntries
            }

            /// The text the model gave for refusing: the text of the response entries.
            nonisolated(nonsending) public var explanation: Response<String> {
                get async throws {
                    Response(content: explanationText, rawContent: GeneratedContent(kind: .string(explanationText)), transcriptEntries: transcriptEntries[...], usage: .zero)
                }
            }

            /// The explanation, streamed.
            public var explanationStream: ResponseStream<String> {
                ResponseStream(content: GeneratedContent(kind: .string(explanationText)), transcriptEntries: transcriptEntries)
            }

            private var explanationText: String {
                transcriptEntries.compactMap { entry -> String? in
                    guard case .response(let response) = entry else { return nil }
                    return response.segments.map(\.text).joined(separator: "\n")
                }.joined(separator: "\n")
            }
        }

        /// The instructions, transcript, prompt, schema and response budget do not fit in the
        /// model's context.
        case exceededContextWindowSize(Context)
        /// The model could not be fetched or loaded.
        case assetsUnavailable(Context)
        /// A safety guardrail was triggered (not raised by the local model).
        case guardrailViolation(Context)
        /// A generation guide cannot be enforced.
        case unsupportedGuide(Context)
        /// The model does not support the language.
        case unsupportedLanguageOrLocale(Context)
        /// The output could not be completed into the requested type, for example because the
        /// token budget ran out.
        case decodingFailure(Context)
        /// Too many requests in too short a time (not raised by the local model).
        case rateLimited(Context)
        /// The session was already responding to another request.
        case concurrentRequests(Context)
        /// The model refused to answer.
        case refusal(Refusal, Context)

        /// The context of the error.
        var context: Context {
            switch self {
            case .exceededContextWindowSize(let context), .assetsUnavailable(let context), .guardrailViolation(let context),
                .unsupportedGuide(let context), .unsupportedLanguageOrLocale(let context), .decodingFailure(let context),
                .rateLimited(let context), .concurrentRequests(let context), .refusal(_, let context):
                context
            }
        }

        public var errorDescription: String? {
            switch self {
            case .exceededContextWindowSize: "The conversation does not fit in the model's context."
            case .assetsUnavailable: "The language model is not available."
            case .guardrailViolation: "The request or the response was flagged by a safety guardrail."
            case .unsupportedGuide: "A generation guide cannot be enforced."
            case .unsupportedLanguageOrLocale: "The language is not supported by the model."
            case .decodingFailure: "The model's output could not be turned into the requested type."
            case .rateLimited: "Too many requests were made."
            case .concurrentRequests: "The session is already responding to a request."
            case .refusal: "The model refused to answer."
            }
        }

        public var failureReason: String? { context.debugDescription }

        public var recoverySuggestion: String? {
            switch self {
            case .exceededContextWindowSize: "Start a new session with a shorter transcript, or ask for fewer response tokens."
            case .assetsUnavailable: "Run `guided fetch-model`, or point the model at a GGUF file."
            case .decodingFailure: "Allow more response tokens, or simplify the schema."
            case .concurrentRequests: "Wait until the session's current response is complete."
            case .unsupportedGuide: "Remove or change the guide."
            default: nil
            }
        }
    }
}
