import Foundation

extension LanguageModelExecutorGenerationChannel {
    /// One thing an executor reports: a change to the response, to its reasoning, or to the
    /// tool calls it makes. Without an `entryID`, consecutive events of one kind go into one
    /// entry; an explicit id anchors an event to its entry.
    public struct Event: Sendable {
        enum Kind: Sendable {
            case response(Response)
            case reasoning(Reasoning)
            case toolCalls(ToolCalls)
            case data(DataEntry)
        }

        let kind: Kind

        /// A change to the response.
        public static func response(entryID: String? = nil, action: Response.Action) -> Event {
            Event(kind: .response(Response(action: action, entryID: entryID)))
        }

        /// A change to the model's reasoning.
        public static func reasoning(entryID: String? = nil, action: Reasoning.Action) -> Event {
            Event(kind: .reasoning(Reasoning(action: action, entryID: entryID)))
        }

        /// A change to the tool calls of the turn.
        public static func toolCalls(entryID: String? = nil, action: ToolCalls.Action) -> Event {
            Event(kind: .toolCalls(ToolCalls(action: action, entryID: entryID)))
        }

        /// A data entry of the turn, made or replaced: the entry of `entryID`, or without one,
        /// the entry the previous event made when it was a data event too, else a new one.
        public static func data(entryID: String? = nil, action: DataEntry.Action) -> Event {
            Event(kind: .data(DataEntry(action: action, entryID: entryID)))
        }
    }

    /// A data entry an executor adds to the transcript: bytes of a content type the model
    /// accepts (``LanguageModel/supportsDataEntryType(_:)``), with metadata.
    public struct DataEntry: Sendable {
        /// What changes.
        public var action: Action
        /// The entry it changes; `nil` for the one the previous data event changed, else a new one.
        public var entryID: String?

        /// What changes.
        public struct Action: Sendable {
            enum Storage: Sendable {
                case update(Transcript.DataEntry)
            }

            let storage: Storage

            /// The entry's content, replacing what it held (an entry of a new id is added).
            public static func update(contentType: UTType, content: Data, metadata: GeneratedContent = GeneratedContent(properties: [:])) -> Action {
                Action(storage: .update(Transcript.DataEntry(contentType: contentType, content: content, metadata: metadata)))
            }
        }
    }

    /// Token totals of an entry; each report replaces the totals before it.
    public typealias Usage = LanguageModelSession.Usage

    /// Text added to a segment: to the current one when `segmentID` is `nil` or empty, else to
    /// the segment of that id (a new one when the id is new).
    public struct TextFragment: Sendable {
        public var content: String
        public var tokenCount: Int
        public var segmentID: String?
    }

    /// The whole text of a segment, replacing what it held.
    public struct TextSegmentReplacement: Sendable {
        public var content: String
        public var tokenCount: Int
        public var segmentID: String?
    }

    /// A change to the response entry.
    public struct Response: Sendable {
        public var action: Action
        public var entryID: String?

        /// What changes.
        public struct Action: Sendable {
            enum Storage: Sendable {
                case appendText(TextFragment)
                case replaceTextSegment(TextSegmentReplacement)
                case addAttachmentSegment(Transcript.AttachmentSegment)
                case removeAttachmentSegment(id: String)
                case updateCustomSegment(any Transcript.CustomSegment)
                case updateMetadata([String: GeneratedContent])
                case updateUsage(Usage)
            }

            let storage: Storage

            /// Text the model wrote.
            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .appendText(TextFragment(content: text, tokenCount: tokenCount, segmentID: segmentID)))
            }

            /// The whole text of a segment, replacing what it held.
            public static func replaceTextSegment(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .replaceTextSegment(TextSegmentReplacement(content: text, tokenCount: tokenCount, segmentID: segmentID)))
            }

            /// An attachment the model produced, added to the response (always added: to replace
            /// one, remove it first).
            public static func addAttachmentSegment(_ segment: Transcript.AttachmentSegment) -> Action {
                Action(storage: .addAttachmentSegment(segment))
            }

            /// Removes the attachment of the response whose id is `id`.
            public static func removeAttachmentSegment(id: String) -> Action {
                Action(storage: .removeAttachmentSegment(id: id))
            }

            /// A segment of the app's own kind in the response: added, or put in the place of the
            /// one with the same id.
            public static func updateCustomSegment(_ segment: some Transcript.CustomSegment) -> Action {
                Action(storage: .updateCustomSegment(segment))
            }

            /// The entry's metadata, replacing what it held.
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                Action(storage: .updateMetadata(values.mapValues(\.generatedContent)))
            }

            /// The entry's token totals so far, replacing those reported before.
            public static func updateUsage(input: Usage.Input, output: Usage.Output, metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> Action {
                Action(storage: .updateUsage(Usage(input: input, output: output, metadata: metadata)))
            }
        }
    }

    /// A change to the reasoning entry that comes before a response or tool calls.
    public struct Reasoning: Sendable {
        public var action: Action
        public var entryID: String?

        /// What changes.
        public struct Action: Sendable {
            enum Storage: Sendable {
                case appendText(TextFragment)
                case replaceTextSegment(TextSegmentReplacement)
                case updateSignature(Data, tokenCount: Int)
                case updateMetadata([String: GeneratedContent])
                case updateUsage(Usage)
            }

            let storage: Storage

            /// Reasoning text the model wrote.
            public static func appendText(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .appendText(TextFragment(content: text, tokenCount: tokenCount, segmentID: segmentID)))
            }

            /// The whole text of a reasoning segment, replacing what it held.
            public static func replaceTextSegment(_ text: String, segmentID: String? = nil, tokenCount: Int) -> Action {
                Action(storage: .replaceTextSegment(TextSegmentReplacement(content: text, tokenCount: tokenCount, segmentID: segmentID)))
            }

            /// The provider's signature of the reasoning (its text may then be a summary, or empty).
            public static func updateSignature(_ signature: Data, tokenCount: Int) -> Action {
                Action(storage: .updateSignature(signature, tokenCount: tokenCount))
            }

            /// The entry's metadata, replacing what it held.
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                Action(storage: .updateMetadata(values.mapValues(\.generatedContent)))
            }

            /// The entry's token totals so far, replacing those reported before.
            public static func updateUsage(input: Usage.Input, output: Usage.Output, metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> Action {
                Action(storage: .updateUsage(Usage(input: input, output: output, metadata: metadata)))
            }
        }
    }

    /// A change to the tool calls of a turn.
    public struct ToolCalls: Sendable {
        public var action: Action
        public var entryID: String?

        /// What changes.
        public struct Action: Sendable {
            enum Storage: Sendable {
                case toolCall(ToolCall)
                case removeToolCall(id: String)
                case updateMetadata([String: GeneratedContent])
                case updateUsage(Usage)
            }

            let storage: Storage

            /// A change to the call `id` of tool `name`; the first event of an id opens the call.
            public static func toolCall(id: String, name: String, action: ToolCall.Action) -> Action {
                Action(storage: .toolCall(ToolCall(action: action, id: id, name: name)))
            }

            /// Withdraws a call.
            public static func removeToolCall(id: String) -> Action {
                Action(storage: .removeToolCall(id: id))
            }

            /// The entry's metadata, replacing what it held.
            public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                Action(storage: .updateMetadata(values.mapValues(\.generatedContent)))
            }

            /// The entry's token totals so far, replacing those reported before.
            public static func updateUsage(input: Usage.Input, output: Usage.Output, metadata: [String: any ConvertibleToGeneratedContent] = [:]) -> Action {
                Action(storage: .updateUsage(Usage(input: input, output: output, metadata: metadata)))
            }
        }

        /// A change to one tool call.
        public struct ToolCall: Sendable {
            public var action: Action
            public var id: String
            public var name: String

            /// What changes.
            public struct Action: Sendable {
                enum Storage: Sendable {
                    case appendArguments(ArgumentsFragment)
                    case updateMetadata([String: GeneratedContent])
                }

                let storage: Storage

                /// More of the arguments' JSON text.
                public static func appendArguments(_ content: String, tokenCount: Int) -> Action {
                    Action(storage: .appendArguments(ArgumentsFragment(content: content, tokenCount: tokenCount)))
                }

                /// The call's metadata, replacing what it held.
                public static func updateMetadata(_ values: [String: any ConvertibleToGeneratedContent]) -> Action {
                    Action(storage: .updateMetadata(values.mapValues(\.generatedContent)))
                }
            }

            /// Text of a call's arguments.
            public struct ArgumentsFragment: Sendable {
                public var content: String
                public var tokenCount: Int
            }
        }
    }
}
