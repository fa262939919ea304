import PartialJSON

/// The text of a response as it is written, and its content: for JSON responses, parsed as the
/// bytes arrive, with identities that stay the same from one snapshot to the next.
struct TextAccumulator {
    private(set) var bytes: [UInt8] = []
    private var parser: PartialJSONParser?
    /// The identity of each structure and array, by its path in the content.
    private var identities: [String: GenerationID] = [:]

    init(json: Bool) {
        parser = json ? PartialJSONParser() : nil
    }

    /// The text so far (a character cut off at the end is left out).
    var string: String {
        var end = bytes.count
        while end > 0, String(validating: bytes[..<end], as: UTF8.self) == nil, bytes.count - end < 4 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    mutating func append(_ more: [UInt8]) throws {
        bytes += more
        do {
            try parser?.feed(more)
        } catch {
            throw LanguageModelSession.GenerationError.decodingFailure(
                .init(debugDescription: "The response is not JSON at byte \(bytes.count): \(error)"))
        }
    }

    /// The content so far, or `nil` while there is none to show.
    mutating func snapshot() throws -> GeneratedContent? {
        guard let parser else { return GeneratedContent(kind: .string(string), isComplete: false) }
        guard let root = parser.snapshot.root else { return nil }
        return identified(try GeneratedContent(snapshot: root), path: "")
    }

    /// The complete content, once the text is finished.
    mutating func finishedContent() throws -> GeneratedContent {
        guard let parser else { return GeneratedContent(kind: .string(string)) }
        do {
            return identified(try GeneratedContent(complete: parser.finish()), path: "")
        } catch {
            throw LanguageModelSession.GenerationError.decodingFailure(
                .init(debugDescription: "The response is not a complete JSON value \(position): \(error)"))
        }
    }

    /// Where the text stopped, as a path into the content (`in "steps"[2]`).
    var position: String {
        guard let parser, let root = parser.snapshot.root, let content = try? GeneratedContent(snapshot: root) else {
            return "after \(bytes.count) bytes"
        }
        var path = ""
        var current = content
        while true {
            switch current.kind {
            case .structure(let properties, let keys):
                guard let key = keys.last, let value = properties[key] else { return "in \(path.isEmpty ? "the root object" : path)" }
                path += path.isEmpty ? "property \"\(key)\"" : ".\(key)"
                current = value
            case .array(let elements):
                guard let element = elements.last else { return "in \(path.isEmpty ? "the root array" : path)" }
                path += "[\(elements.count - 1)]"
                current = element
            default:
                return "in \(path.isEmpty ? "the root value" : path)"
            }
        }
    }

    /// `content` with the identity of each structure and array it holds.
    private mutating func identified(_ content: GeneratedContent, path: String) -> GeneratedContent {
        var content = content
        switch content.kind {
        case .structure(let properties, let keys):
            var identified: [String: GeneratedContent] = [:]
            for key in keys {
                if let value = properties[key] { identified[key] = self.identified(value, path: path + "/" + key) }
            }
            content.kind = .structure(properties: identified, orderedKeys: keys)
        case .array(let elements):
            content.kind = .array(elements.enumerated().map { identified($0.element, path: path + "/\($0.offset)") })
        default:
            return content
        }
        if let id = identities[path] {
            content.id = id
        } else {
            let id = GenerationID()
            identities[path] = id
            content.id = id
        }
        return content
    }
}
