import Foundation

/// Why a model could not answer a request, as a ``LanguageModelExecutor`` reports it (or the
/// session, when a model lacks a capability the request needs).
public enum LanguageModelError: Error, LocalizedError, CustomDebugStringConvertible {
    /// The conversation and the response do not fit in the model's context.
    public struct ContextSizeExceeded: Sendable {
        public var contextSize: Int
        public var tokenCount: Int
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(contextSize: Int, tokenCount: Int, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.contextSize = contextSize
            self.tokenCount = tokenCount
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// Too many requests; try again after `resetDate`, when known.
    public struct RateLimited: Sendable {
        public var resetDate: Date?
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(resetDate: Date?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.resetDate = resetDate
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model declined to answer, with the reason it gave.
    public struct Refusal: Sendable {
        /// The reason the model gave, as text.
        let explanationText: String
        /// What happened, for the developer.
        public var debugDescription: String
        /// What the model or its provider attached to the refusal.
        public var metadata: [String: any Sendable]

        /// A refusal with the model's reason for it.
        public init(explanation: String, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            explanationText = explanation
            self.debugDescription = debugDescription
            self.metadata = metadata
        }

        /// The entry that holds the model's reason: a response of its text.
        var explanationEntry: Transcript.Entry {
            .response(Transcript.Response(assetIDs: [], segments: [.text(Transcript.TextSegment(content: explanationText))]))
        }

        /// The model's reason for refusing, as a response whose content is its text.
        nonisolated(nonsending) public var explanation: LanguageModelSession.Response<String> {
            get async throws {
                LanguageModelSession.Response(
                    content: explanationText, rawContent: GeneratedContent(kind: .string(explanationText)), transcriptEntries: [explanationEntry][...],
                    usage: .zero)
            }
        }

        /// The model's reason for refusing, as a stream: one snapshot of the whole text, since
        /// the reason is known when the refusal is.
        public var explanationStream: LanguageModelSession.ResponseStream<String> {
            LanguageModelSession.ResponseStream(content: GeneratedContent(kind: .string(explanationText)), transcriptEntries: [explanationEntry])
        }
    }

    /// The request or the response was flagged by a safety check.
    public struct GuardrailViolation: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The request needs something the model cannot do.
    public struct UnsupportedCapability: Sendable {
        public var capability: LanguageModelCapabilities.Capability
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(capability: LanguageModelCapabilities.Capability, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.capability = capability
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// Entries of the transcript hold content the model cannot read.
    public struct UnsupportedTranscriptContent: Sendable {
        public var unsupportedContent: [Transcript.Entry]
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(unsupportedContent: [Transcript.Entry], debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.unsupportedContent = unsupportedContent
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// A generation guide of the schema cannot be enforced.
    public struct UnsupportedGenerationGuide: Sendable {
        public var schemaName: String?
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(schemaName: String?, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.schemaName = schemaName
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model does not speak the language of the request.
    public struct UnsupportedLanguageOrLocale: Sendable {
        public var languageCode: Locale.LanguageCode
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(languageCode: Locale.LanguageCode, debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.languageCode = languageCode
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    /// The model did not answer in time.
    public struct Timeout: Sendable {
        public var debugDescription: String
        public var metadata: [String: any Sendable]

        public init(debugDescription: String, metadata: [String: any Sendable] = [:]) {
            self.debugDescription = debugDescription
            self.metadata = metadata
        }
    }

    case contextSizeExceeded(ContextSizeExceeded)
    case rateLimited(RateLimited)
    case refusal(Refusal)
    case guardrailViolation(GuardrailViolation)
    case unsupportedCapability(UnsupportedCapability)
    case unsupportedTranscriptContent(UnsupportedTranscriptContent)
    case unsupportedGenerationGuide(UnsupportedGenerationGuide)
    case unsupportedLanguageOrLocale(UnsupportedLanguageOrLocale)
    case timeout(Timeout)

    public var debugDescription: String {
        switch self {
        case .contextSizeExceeded(let payload): payload.debugDescription
        case .rateLimited(let payload): payload.debugDescription
        case .refusal(let payload): payload.debugDescription
        case .guardrailViolation(let payload): payload.debugDescription
        case .unsupportedCapability(let payload): payload.debugDescription
        case .unsupportedTranscriptContent(let payload): payload.debugDescription
        case .unsupportedGenerationGuide(let payload): payload.debugDescription
        case .unsupportedLanguageOrLocale(let payload): payload.debugDescription
        case .timeout(let payload): payload.debugDescription
        }
    }

    public var errorDescription: String? {
        switch self {
        case .contextSizeExceeded: "The conversation does not fit in the model's context."
        case .rateLimited: "Too many requests were made."
        case .refusal: "The model refused to answer."
        case .guardrailViolation: "The request or the response was flagged by a safety guardrail."
        case .unsupportedCapability: "The model cannot do what the request needs."
        case .unsupportedTranscriptContent: "The transcript holds content the model cannot read."
        case .unsupportedGenerationGuide: "A generation guide cannot be enforced."
        case .unsupportedLanguageOrLocale: "The language is not supported by the model."
        case .timeout: "The model did not answer in time."
        }
    }
}

extension LanguageModelError {
    /// The session error of the same meaning, for code written against the session's errors;
    /// `nil` for the errors it has no case for.
    var generationError: LanguageModelSession.GenerationError? {
        typealias GenerationError = LanguageModelSession.GenerationError
        switch self {
        case .contextSizeExceeded(let payload): return .exceededContextWindowSize(.init(debugDescription: payload.debugDescription))
        case .rateLimited(let payload): return .rateLimited(.init(debugDescription: payload.debugDescription))
        case .guardrailViolation(let payload): return .guardrailViolation(.init(debugDescription: payload.debugDescription))
        case .unsupportedGenerationGuide(let payload): return .unsupportedGuide(.init(debugDescription: payload.debugDescription))
        case .unsupportedLanguageOrLocale(let payload): return .unsupportedLanguageOrLocale(.init(debugDescription: payload.debugDescription))
        case .refusal(let payload):
            return .refusal(GenerationError.Refusal(transcriptEntries: [payload.explanationEntry]), .init(debugDescription: payload.debugDescription))
        case .unsupportedCapability, .unsupportedTranscriptContent, .timeout: return nil
        }
    }
}
