import Foundation
import GuidedGeneration
import Synchronization

/// A deterministic language model for tests: its vocabulary is the 256 bytes, a few multi-byte
/// tokens and four control tokens; at each step it favours the next byte of the scripted reply
/// for the current turn (then the end of the turn), over deterministic noise that depends on the
/// tokens so far. Without a script, it writes noise, more and more likely to stop.
final class ScriptedModel: LanguageModelBackend, LoadedLanguageModel, @unchecked Sendable {
    static let end: Int32 = 256
    static let system: Int32 = 257
    static let user: Int32 = 258
    static let assistant: Int32 = 259
    static let controls: [(String, Int32)] = [("<|end|>", end), ("<|system|>", system), ("<|user|>", user), ("<|assistant|>", assistant)]
    /// Multi-byte tokens, so that masks have choices of several lengths.
    static let words = ["\"}", "\":\"", "\",\"", "the", " ", "ing", "{\"", "\":", "true", "null"]

    let replies: [String]
    let contextSize: Int
    let delay: TimeInterval
    let availability: SystemLanguageModel.Availability
    let failsToLoad: Bool
    /// How far above the noise (which lies in [0, 1)) the scripted byte's logit is.
    let margin: Float
    private let log = Mutex<(evaluated: Int, conversations: [String], pauses: [(evaluated: Int, unread: [Int32])])>((0, [], []))
    private let tokenized = Atomic<Int>(0)

    init(
        replies: [String] = [], contextSize: Int = 1024, delay: TimeInterval = 0, availability: SystemLanguageModel.Availability = .available,
        failsToLoad: Bool = false, margin: Float = 20
    ) {
        self.replies = replies
        self.margin = margin
        self.contextSize = contextSize
        self.delay = delay
        self.availability = availability
        self.failsToLoad = failsToLoad
    }

    /// How many tokens were run through the model.
    var evaluatedTokenCount: Int { log.withLock { $0.evaluated } }
    /// How many bytes of text were tokenized.
    var tokenizedByteCount: Int { tokenized.load(ordering: .relaxed) }
    /// The conversations rendered so far.
    var conversations: [String] { log.withLock { $0.conversations } }
    /// How many tokens had been run through the model at each ``LanguageModelContext/pause(unread:)``,
    /// and the tokens left unread.
    var pauses: [(evaluated: Int, unread: [Int32])] { log.withLock { $0.pauses } }

    struct LoadError: Error {}

    func load(progress: @Sendable (String) -> Void) throws -> any LoadedLanguageModel {
        if failsToLoad { throw LoadError() }
        return self
    }

    let tokenBytes: [[UInt8]] = (0...255).map { [UInt8($0)] } + ScriptedModel.controls.map { Array($0.0.utf8) } + ScriptedModel.words.map { Array($0.utf8) }

    var specialTokens: Set<Int32> { Set(Self.controls.map(\.1)) }
    var stopTokens: Set<Int32> { [Self.end] }

    func tokenize(_ text: String, parsingSpecialTokens: Bool) -> [Int32] {
        let bytes = Array(text.utf8)
        tokenized.add(bytes.count, ordering: .relaxed)
        var tokens: [Int32] = []
        var index = 0
        while index < bytes.count {
            if parsingSpecialTokens, bytes[index] == UInt8(ascii: "<"),
                let (name, id) = Self.controls.first(where: { bytes[index...].starts(with: $0.0.utf8) })
            {
                tokens.append(id)
                index += name.utf8.count
            } else {
                tokens.append(Int32(bytes[index]))
                index += 1
            }
        }
        return tokens
    }

    func conversationText(_ messages: [ConversationMessage]) -> String {
        let text = messages.map { message in
            let marker = ["system": "<|system|>", "user": "<|user|>", "assistant": "<|assistant|>", "tool": "<|user|>tool: "][message.role.rawValue] ?? ""
            return marker + message.content + "<|end|>"
        }.joined() + "<|assistant|>"
        log.withLock { $0.conversations.append(text) }
        return text
    }

    func makeContext(size: Int) throws -> any LanguageModelContext {
        Context(model: self, size: size)
    }

    /// The logits after `tokens`.
    fileprivate func logits(after tokens: [Int32], into logits: UnsafeMutableBufferPointer<Float>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for token in tokens { hash = (hash ^ UInt64(UInt32(bitPattern: token))) &* 0x100_0000_01b3 }
        for index in logits.indices {
            hash = (hash ^ UInt64(index)) &* 0x100_0000_01b3
            logits[index] = Float(hash >> 40) / Float(1 << 24)
        }
        let turn = tokens.filter { $0 == Self.assistant }.count - 1
        let start = (tokens.lastIndex(of: Self.assistant) ?? tokens.count - 1) + 1
        let written = tokens[start...].flatMap { tokenBytes[Int($0)] }
        guard turn >= 0, turn < replies.count else {
            logits[Int(Self.end)] += Float(written.count) / 16
            return
        }
        let reply = Array(replies[turn].utf8)
        if written.count < reply.count, reply.starts(with: written) {
            logits[Int(reply[written.count])] += margin
        } else {
            // Off the script: the model wants to stop, closing what is open.
            logits[Int(Self.end)] += 10
            for byte in "\"]}".utf8 { logits[Int(byte)] += 5 }
        }
    }

    private final class Context: LanguageModelContext {
        let model: ScriptedModel
        let size: Int
        var tokens: [Int32] = []
        let values: UnsafeMutableBufferPointer<Float>

        init(model: ScriptedModel, size: Int) {
            self.model = model
            self.size = size
            values = .allocate(capacity: model.tokenBytes.count)
            values.initialize(repeating: 0)
        }

        deinit {
            values.deallocate()
        }

        var count: Int { tokens.count }

        func truncate(to count: Int) {
            tokens.removeLast(max(0, tokens.count - count))
        }

        struct Full: Error {}

        func evaluate(_ more: [Int32]) throws -> UnsafeBufferPointer<Float> {
            guard tokens.count + more.count <= size else { throw Full() }
            if model.delay > 0 { Thread.sleep(forTimeInterval: model.delay) }
            tokens += more
            model.log.withLock { $0.evaluated += more.count }
            model.logits(after: tokens, into: values)
            return UnsafeBufferPointer(values)
        }

        func pause(unread: [Int32]) {
            model.log.withLock { $0.pauses.append(($0.evaluated, unread)) }
        }

        func copyPrefix(_ count: Int, from other: any LanguageModelContext) -> Bool {
            guard let other = other as? Context, other.model === model, count <= other.tokens.count, count <= size else { return false }
            tokens = Array(other.tokens[..<count])
            return true
        }
    }
}
