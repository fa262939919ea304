import ChatTemplates
import Foundation
import LlamaInference
import ModelFetching
import PartialJSON

/// A model of the Llama family (Llama, Qwen 2 and 3, Phi-3, Gemma 3) in a GGUF file, run on the CPU by `LlamaInference`: the default
/// Qwen2.5-Coder-1.5B-Instruct or another ``KnownModel`` by name (fetched on first use), or any file given by path.
struct EmbeddedModel: LanguageModelBackend {
    /// The file, a known model's name, or `nil` for the default model (known models are fetched
    /// into the model cache when missing).
    let path: String?
    let contextSize: Int
    /// A chat template to use instead of the file's own, by name.
    let templateName: String?
    let threadCount: Int
    /// A LoRA adapter applied to the model's products.
    var adapter: LoRAAdapter? = nil

    /// The known model named instead of a file (the default when none is): fetched when missing.
    private var named: KnownModel? {
        guard let path else { return .default }
        return FileManager.default.fileExists(atPath: path) ? nil : KnownModel.named(path)
    }

    /// The known model this one is: one named, or one whose file is given by path.
    var knownModel: KnownModel? {
        named ?? path.flatMap { path in KnownModel.all.first { $0.fileName == (path as NSString).lastPathComponent } }
    }

    var availability: SystemLanguageModel.Availability {
        if let named { return ModelStore.isPresent(named) ? .available : .unavailable(.modelNotReady) }
        return FileManager.default.isReadableFile(atPath: path ?? "") ? .available : .unavailable(.modelNotReady)
    }

    func load(progress: @Sendable (String) -> Void) throws -> any LoadedLanguageModel {
        let modelPath = try named.map { known throws(ModelStore.FetchError) in try ModelStore.path(of: known, progress: progress) } ?? path ?? ""
        progress("loading \(modelPath)")
        let file = try GGUFFile(path: modelPath)
        let template = try templateName.map { name throws(ChatTemplate.UnknownTemplateError) in try ChatTemplate(named: name) }
            ?? ChatTemplate(file: file)
        return try LoadedEmbeddedModel(
            model: LlamaModel(file: file, threadCount: threadCount, adapter: adapter), tokenizer: makeTokenizer(file: file), template: template,
            sampling: RecommendedSampling(file: file), samplingPreset: Self.preset(of: knownModel))
    }

    /// The sampling preset a known model gets by default, chosen by measurement (Benchmarks/README.md,
    /// "Answers that end by themselves" and "The default model"): SmolLM2-135M, of 135M
    /// parameters, loops without the small-model preset; Qwen2.5-Coder-0.5B's sentences loop in
    /// long strings without DRY, and more of the 1.5B model's answers end by themselves with it.
    static func preset(of model: KnownModel?) -> SamplingPreset? {
        switch model {
        case .smolLM2?: .smallModel
        case .qwen25Coder05B?, .qwen25Coder15B?: .dry
        default: nil
        }
    }
}

/// The embedded model once its file is open.
final class LoadedEmbeddedModel: LoadedLanguageModel {
    let model: LlamaModel
    let tokenizer: any Tokenizer
    let template: ChatTemplate
    let stopTokens: Set<Int32>
    let sampling: RecommendedSampling
    let samplingPreset: SamplingPreset?
    /// Runs the tokens of every context of the model: those that several requests submit at
    /// once go through one forward pass.
    let batcher: SequenceBatcher

    init(
        model: LlamaModel, tokenizer: any Tokenizer, template: ChatTemplate, sampling: RecommendedSampling = RecommendedSampling(),
        samplingPreset: SamplingPreset? = nil
    ) {
        self.model = model
        batcher = SequenceBatcher(model: model, contextLength: min(2048, model.configuration.contextLength))
        self.samplingPreset = samplingPreset
        self.tokenizer = tokenizer
        self.template = template
        self.sampling = sampling
        stopTokens = Set(tokenizer.encode(template.endOfTurn, parsingSpecialTokens: true) + [tokenizer.endOfText])
    }

    var tokenBytes: [[UInt8]] { tokenizer.tokenBytes }
    var trainedContextLength: Int? { model.configuration.contextLength }
    var specialTokens: Set<Int32> { tokenizer.specialTokens }
    var recommendedTemperature: Double? { sampling.temperature }
    var recommendedProbabilityThreshold: Double? { sampling.probabilityThreshold }
    var recommendedMinimumRelativeProbability: Double? { sampling.minimumRelativeProbability }
    /// Indented, as the chat data of these models has JSON (``JSONLayout/localAnswers``).
    var jsonIndentation: Int? {
        guard case .indented(let indent) = JSONLayout.localAnswers else { return nil }
        return indent
    }

    func tokenize(_ text: String, parsingSpecialTokens: Bool) -> [Int32] {
        tokenizer.encode(text, parsingSpecialTokens: parsingSpecialTokens)
    }

    func conversationText(_ messages: [ConversationMessage]) throws -> String {
        try template.render(messages)
    }

    /// The file's own Jinja template with the tools, when it writes calls in `<tool_call>` tags.
    func conversationText(_ messages: [ConversationMessage], tools: [JSONValue]) throws -> String? {
        guard case .jinja(let jinja) = template, !tools.isEmpty else { return nil }
        let text = try jinja.render(messages, tools: tools.map(JinjaValue.init(jsonValue:)))
        return text.contains(TaggedToolCalls.opening) ? text : nil
    }

    func makeContext(size: Int) throws -> any LanguageModelContext {
        EmbeddedModelContext(session: InferenceSession(model: model, contextLength: size), batcher: batcher)
    }
}

/// A KV cache of the embedded model.
final class EmbeddedModelContext: LanguageModelContext {
    let session: InferenceSession
    let batcher: SequenceBatcher

    init(session: InferenceSession, batcher: SequenceBatcher) {
        self.session = session
        self.batcher = batcher
    }

    var count: Int { session.position }

    func truncate(to count: Int) {
        session.truncate(to: count)
    }

    func evaluate(_ tokens: [Int32]) throws -> UnsafeBufferPointer<Float> {
        try batcher.evaluate(tokens, in: session)
        return UnsafeBufferPointer(session.logits)
    }

    func pause(unread: [Int32]) {
        batcher.pause(session)
    }

    func copyPrefix(_ count: Int, from other: any LanguageModelContext) -> Bool {
        guard let other = other as? EmbeddedModelContext else { return false }
        return session.copyPrefix(count, from: other.session)
    }
}
