import ConstrainedDecoding
import PartialJSON
import Synchronization

/// A loaded model with what generation needs around it: the constrained decoder's view of its
/// vocabulary, and the grammars compiled for it, by schema.
final class ModelRuntime: Sendable {
    let model: any LoadedLanguageModel
    let contextSize: Int
    let vocabulary: Vocabulary
    /// The tokens a text response may hold: every ordinary token, and those that end the turn.
    let textTokens: TokenBitset
    /// The bytes of the longest token's text: a text of more than `contextSize` times as many
    /// bytes cannot fit in the context, whatever its tokens.
    let longestTokenBytes: Int
    private let grammars = Mutex<[GrammarKey: CompiledGrammar]>([:])
    /// The vocabulary of ``TaggedToolCalls`` grammars, made when first needed.
    private let keptTaggedCallVocabulary = Mutex<Vocabulary?>(nil)
    /// DRY's tables over this vocabulary, by setting (the last few).
    private let dryPenalties = Mutex<[DRYSettings: DRYPenalty]>([:])

    init(model: any LoadedLanguageModel, contextSize: Int) {
        self.model = model
        self.contextSize = contextSize
        // Each token that ends the model's turn ends the document: Gemma's `<end_of_turn>` as
        // well as its `<eos>`, so that a grammar which may go on (lines under a GBNF grammar)
        // ends where the model ends its turn, with the token it was taught to.
        let end = model.stopTokens.min() ?? Int32(model.tokenBytes.count)
        vocabulary = Vocabulary(
            tokens: model.tokenBytes, specialTokens: model.specialTokens.union(model.stopTokens), endOfText: end, otherEndTokens: model.stopTokens)
        var text = TokenBitset(capacity: model.tokenBytes.count)
        for id in model.tokenBytes.indices where !model.specialTokens.contains(Int32(id)) { text.insert(Int32(id)) }
        for id in model.stopTokens { text.insert(id) }
        textTokens = text
        longestTokenBytes = max(1, model.tokenBytes.lazy.map(\.count).max() ?? 1)
    }

    /// What a compiled grammar is kept under: the schema value (not its text) with what it was
    /// compiled for, or the text grammar.
    private enum GrammarKey: Hashable {
        case schema(JSONValue, lenient: Bool, layout: JSONLayout)
        case text(TextGrammar)
        /// A ``TaggedToolCalls`` grammar, by its Lark text.
        case taggedCalls(String)
    }

    /// The vocabulary of turns in the model's own tool-call format: ``vocabulary`` with the
    /// tokens that spell the call tags (`<tool_call>`, `</tool_call>`) allowed, which Qwen's
    /// vocabulary marks as user-defined, so that the model writes a tag as the one token it
    /// learned rather than in pieces. Other special tokens stay out.
    var taggedCallVocabulary: Vocabulary {
        keptTaggedCallVocabulary.withLock { kept in
            if let kept { return kept }
            let tags = [TaggedToolCalls.opening, TaggedToolCalls.closing].map { Array($0.utf8) }
            let tagTokens = Set(model.specialTokens.filter { tags.contains(model.tokenBytes[Int($0)]) })
            let made =
                tagTokens.isEmpty
                ? vocabulary
                : Vocabulary(
                    tokens: model.tokenBytes, specialTokens: model.specialTokens.subtracting(tagTokens).union(model.stopTokens),
                    endOfText: vocabulary.endOfText, otherEndTokens: model.stopTokens)
            kept = made
            return made
        }
    }

    /// The compiled grammar of a turn in the model's own tool-call format (Lark text from
    /// ``TaggedToolCalls/grammar(tools:answer:requiresCall:maximumCalls:)``), its embedded
    /// schemas written with at most one space where JSON allows whitespace, as templates write
    /// calls (`{"city": "Paris"}`), kept with the other grammars.
    func taggedCallGrammar(_ lark: String) throws(GrammarError) -> CompiledGrammar {
        let key = GrammarKey.taggedCalls(lark)
        if let grammar = grammars.withLock({ $0[key] }) { return grammar }
        return keep(try CompiledGrammar(lark: lark, options: CompileOptions(whitespace: .flexible(maximum: 1))), as: key, over: taggedCallVocabulary)
    }

    /// The tokens of a conversation with tools rendered by the model's own template
    /// (``LoadedLanguageModel/conversationText(_:tools:)``); `nil` when it has no tool-call format.
    func tokens(ofConversation messages: [ConversationMessage], tools: [JSONValue]) throws -> [Int32]? {
        guard let text = try model.conversationText(messages, tools: tools) else { return nil }
        return try tokens(ofConversationText: text)
    }

    /// The most compiled grammars kept.
    static let grammarLimit = 64

    /// The grammar of a JSON Schema, compiled once with its slowest masks; `lenient` drops the keywords that cannot be
    /// enforced while generating (the final value is then checked against the whole schema);
    /// `layout` says where whitespace goes; `compiled` is the schema already compiled (a
    /// ``GenerationSchema``'s document, compiled as it was read), used where its options are due.
    func grammar(
        forJSONSchema schema: JSONValue, lenient: Bool = false, layout: JSONLayout = .compact, compiled: CompiledGrammar? = nil
    ) throws(SchemaError) -> CompiledGrammar {
        let key = GrammarKey.schema(schema, lenient: lenient, layout: layout)
        if let grammar = grammars.withLock({ $0[key] }) { return grammar }
        let grammar: CompiledGrammar
        let options = CompileOptions(whitespace: layout.whitespace, isLenient: lenient)
        let compact = CompileOptions(isLenient: lenient)
        if let compiled, compiled.options == options {
            grammar = compiled
        } else {
            do {
                grammar = try CompiledGrammar(jsonSchema: schema, options: options)
            } catch {
                // The layout's whitespace takes states; a schema near the budget is written compact.
                guard case .tooLarge = error, layout != .compact else { throw error }
                if let compiled, compiled.options == compact {
                    grammar = compiled
                } else {
                    grammar = try CompiledGrammar(jsonSchema: schema, options: compact)
                }
            }
        }
        // The masks slowest to compute at first use (the first inside strings of a pattern or a
        // format) are computed now, once per schema, bounded in time and memory.
        return keep(grammar, as: key)
    }

    /// Computes the grammar's slowest masks over `vocabulary` (the model's, unless a turn's
    /// grammar reads another) and keeps it under `key`.
    private func keep(_ grammar: CompiledGrammar, as key: GrammarKey, over vocabulary: Vocabulary? = nil) -> CompiledGrammar {
        _ = grammar.precomputeMasks(for: vocabulary ?? self.vocabulary)
        grammars.withLock { grammars in
            // Each grammar keeps the automata its matchers built: a server seeing ever new
            // schemas starts the cache over rather than growing without end.
            if grammars.count >= Self.grammarLimit { grammars.removeAll() }
            grammars[key] = grammar
        }
        return grammar
    }

    /// The compiled text grammar, kept with the schemas' grammars: a server's `prepare` and the
    /// turn that follows it, and later requests with the same grammar, compile it once.
    func grammar(for textGrammar: TextGrammar) throws(GrammarError) -> CompiledGrammar {
        let key = GrammarKey.text(textGrammar)
        if let grammar = grammars.withLock({ $0[key] }) { return grammar }
        return keep(try textGrammar.compiled(), as: key)
    }

    /// The tokens of a rendered conversation. `withinContext`: a text too long for the context
    /// whatever its tokens (more bytes than the context's tokens can hold) is refused before it
    /// is tokenized.
    func tokens(ofConversation messages: [ConversationMessage], withinContext: Bool = true) throws -> [Int32] {
        try tokens(ofConversationText: try model.conversationText(messages), withinContext: withinContext)
    }

    /// The tokens of a rendered conversation's text, refused as ``tokens(ofConversation:withinContext:)`` says.
    private func tokens(ofConversationText text: String, withinContext: Bool = true) throws -> [Int32] {
        let bytes = text.utf8.count
        guard !withinContext || bytes / longestTokenBytes < contextSize else {
            throw LanguageModelSession.GenerationError.exceededContextWindowSize(
                .init(
                    debugDescription: "The conversation of \(bytes) bytes takes more than \(bytes / longestTokenBytes) tokens "
                        + "(no token is longer than \(longestTokenBytes) bytes); the context holds \(contextSize)."))
        }
        return model.tokenize(text, parsingSpecialTokens: true)
    }

    /// DRY's penalty for `settings` over this vocabulary; its tables are kept for the last few
    /// settings, so that requests do not read the vocabulary again.
    func dryPenalty(_ settings: DRYSettings) -> DRYPenalty {
        if let penalty = dryPenalties.withLock({ $0[settings] }) { return penalty }
        let penalty = DRYPenalty(settings: settings, tokens: model.tokenBytes)
        dryPenalties.withLock { penalties in
            if penalties.count >= 8 { penalties.removeAll() }
            penalties[settings] = penalty
        }
        return penalty
    }
}
