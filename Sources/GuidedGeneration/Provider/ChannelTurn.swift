import Foundation

/// One turn of a ``LanguageModel`` read from its channel: the response text by segment (parsed
/// as it grows, for snapshots), the tool calls by id in the order they opened, and the last
/// token totals reported.
package struct ChannelTurn {
    typealias Channel = LanguageModelExecutorGenerationChannel

    /// The response's segments, in order, each with its text.
    package private(set) var segments: [(id: String, text: String)] = []
    /// The response's attachments and custom segments, in the order they came.
    package private(set) var otherSegments: [Transcript.Segment] = []
    /// The reasoning's segments, in order, each with its text.
    private var reasoningSegments: [(id: String, text: String)] = []
    private var reasoningSignature: Data?
    private var reasoningMetadata: [String: GeneratedContent] = [:]
    /// The tool calls, in the order they opened.
    package private(set) var calls: [(id: String, name: String, arguments: String)] = []
    /// The data entries, in the order they were made.
    package private(set) var dataEntries: [Transcript.DataEntry] = []
    /// The data entry the previous event changed, when it was a data event.
    private var lastDataEntry: Int?
    /// The latest totals per entry kind (response, reasoning, tool calls).
    private var usages: [String: LanguageModelSession.Usage] = [:]
    /// Tokens the text and argument fragments counted, for models that report no usage.
    private var fragmentTokens = 0
    private var reasoningTokens = 0
    private var text: TextAccumulator
    private let isJSON: Bool

    init(json: Bool) {
        isJSON = json
        text = TextAccumulator(json: json)
    }

    /// The response text: its segments one after another.
    package var responseText: String { segments.map(\.text).joined() }

    /// The reasoning text: its segments one after another.
    package var reasoningText: String { reasoningSegments.map(\.text).joined() }

    /// What the model reasoned, when it sent any reasoning.
    package var reasoning: Transcript.Reasoning? {
        guard !reasoningSegments.isEmpty || reasoningSignature != nil else { return nil }
        return Transcript.Reasoning(
            metadata: reasoningMetadata, segments: reasoningSegments.map { .text(Transcript.TextSegment(id: $0.id, content: $0.text)) },
            signature: reasoningSignature)
    }

    /// The turn's token totals: those reported, else those the fragments counted.
    package var usage: LanguageModelSession.Usage {
        if usages.isEmpty {
            return LanguageModelSession.Usage(
                input: .init(totalTokenCount: 0, cachedTokenCount: 0),
                output: .init(totalTokenCount: fragmentTokens + reasoningTokens, reasoningTokenCount: reasoningTokens))
        }
        return usages.values.reduce(.zero) { $0.adding($1) }
    }

    /// Reads an event; returns the new content when the response text changed.
    mutating func read(_ event: Channel.Event) throws -> GeneratedContent? {
        if case .data(let data) = event.kind {
            record(data)
            return nil
        }
        lastDataEntry = nil
        switch event.kind {
        case .response(let response):
            switch response.action.storage {
            case .appendText(let fragment):
                fragmentTokens += fragment.tokenCount
                return try append(fragment.content, to: fragment.segmentID)
            case .replaceTextSegment(let replacement):
                fragmentTokens += replacement.tokenCount
                return try replace(replacement.content, in: replacement.segmentID)
            case .addAttachmentSegment(let segment):
                otherSegments.append(.attachment(segment))
            case .removeAttachmentSegment(let id):
                otherSegments.removeAll { if case .attachment(let segment) = $0 { segment.id == id } else { false } }
            case .updateCustomSegment(let segment):
                let index = otherSegments.firstIndex { if case .custom(let other) = $0 { other.id == segment.id } else { false } }
                if let index { otherSegments[index] = .custom(segment) } else { otherSegments.append(.custom(segment)) }
            case .updateUsage(let usage):
                usages["response"] = usage
            case .updateMetadata:
                break
            }
        case .reasoning(let reasoning):
            switch reasoning.action.storage {
            case .appendText(let fragment):
                reasoningTokens += fragment.tokenCount
                Self.write(fragment.content, into: &reasoningSegments, segment: fragment.segmentID, replacing: false)
            case .replaceTextSegment(let replacement):
                reasoningTokens += replacement.tokenCount
                Self.write(replacement.content, into: &reasoningSegments, segment: replacement.segmentID, replacing: true)
            case .updateSignature(let signature, let tokenCount):
                reasoningTokens += tokenCount
                reasoningSignature = signature
            case .updateUsage(let usage): usages["reasoning"] = usage
            case .updateMetadata(let metadata): reasoningMetadata = metadata
            }
        case .toolCalls(let toolCalls):
            switch toolCalls.action.storage {
            case .toolCall(let call):
                if !calls.contains(where: { $0.id == call.id }) { calls.append((call.id, call.name, "")) }
                if case .appendArguments(let fragment) = call.action.storage, let index = calls.firstIndex(where: { $0.id == call.id }) {
                    calls[index].arguments += fragment.content
                    fragmentTokens += fragment.tokenCount
                }
            case .removeToolCall(let id):
                calls.removeAll { $0.id == id }
            case .updateUsage(let usage):
                usages["toolCalls"] = usage
            case .updateMetadata:
                break
            }
        case .data:
            break
        }
        return nil
    }

    /// Makes or replaces a data entry: that of the event's id, else the one the previous event
    /// changed when it was a data event, else a new one.
    private mutating func record(_ data: Channel.DataEntry) {
        var entry: Transcript.DataEntry
        switch data.action.storage {
        case .update(let update): entry = update
        }
        let index: Int?
        if let id = data.entryID {
            entry.id = id
            index = dataEntries.firstIndex { $0.id == id }
        } else {
            index = lastDataEntry
        }
        if let index {
            entry.id = dataEntries[index].id
            dataEntries[index] = entry
            lastDataEntry = index
        } else {
            dataEntries.append(entry)
            lastDataEntry = dataEntries.count - 1
        }
    }

    /// The complete response: the JSON value, or the text.
    package mutating func finishedContent() throws -> GeneratedContent {
        try text.finishedContent()
    }

    /// Adds text to the segment `id` (the last one when `nil` or empty; a new one when there is
    /// none of that id), or replaces its text.
    private static func write(_ content: String, into segments: inout [(id: String, text: String)], segment id: String?, replacing: Bool) {
        let named = id.flatMap { $0.isEmpty ? nil : $0 }
        let index = named.map { name in segments.lastIndex { $0.id == name } } ?? segments.indices.last
        if let index {
            segments[index].text = replacing ? content : segments[index].text + content
        } else {
            segments.append((named ?? UUID().uuidString, content))
        }
    }

    private mutating func append(_ content: String, to segmentID: String?) throws -> GeneratedContent? {
        if let segmentID, !segmentID.isEmpty, segments.last?.id != segmentID {
            if let index = segments.firstIndex(where: { $0.id == segmentID }) {
                segments[index].text += content
                return try reparse()
            }
            segments.append((segmentID, content))
        } else if segments.isEmpty {
            segments.append((segmentID ?? UUID().uuidString, content))
        } else {
            segments[segments.count - 1].text += content
        }
        // Text added at the end is parsed on from where the parser stopped.
        try text.append(Array(content.utf8))
        return try snapshot()
    }

    private mutating func replace(_ content: String, in segmentID: String?) throws -> GeneratedContent? {
        if let index = segments.lastIndex(where: { segmentID == nil || segmentID == "" || $0.id == segmentID }) {
            segments[index].text = content
        } else {
            segments.append((segmentID ?? UUID().uuidString, content))
        }
        return try reparse()
    }

    /// Parses the whole text again, after a change before its end.
    private mutating func reparse() throws -> GeneratedContent? {
        text = TextAccumulator(json: isJSON)
        try text.append(Array(responseText.utf8))
        return try snapshot()
    }

    private mutating func snapshot() throws -> GeneratedContent? {
        try text.snapshot()
    }
}
