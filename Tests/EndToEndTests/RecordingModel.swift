import Foundation
import GuidedGeneration

/// A loaded model whose contexts record the tokens they hold, so that a test sees exactly the
/// tokens a session read and wrote; everything else is the model's own.
struct RecordingBackend: LanguageModelBackend {
    let model: any LoadedLanguageModel
    let contextSize: Int
    let recorder: ReplayRecorder

    var availability: SystemLanguageModel.Availability { .available }

    func load(progress: @Sendable (String) -> Void) throws -> any LoadedLanguageModel {
        RecordingModel(model: model, recorder: recorder)
    }
}

/// The loaded side of ``RecordingBackend``.
final class RecordingModel: LoadedLanguageModel {
    let model: any LoadedLanguageModel
    let recorder: ReplayRecorder

    init(model: any LoadedLanguageModel, recorder: ReplayRecorder) {
        self.model = model
        self.recorder = recorder
    }

    var tokenBytes: [[UInt8]] { model.tokenBytes }
    var specialTokens: Set<Int32> { model.specialTokens }
    var stopTokens: Set<Int32> { model.stopTokens }
    var trainedContextLength: Int? { model.trainedContextLength }
    var recommendedTemperature: Double? { model.recommendedTemperature }
    var recommendedProbabilityThreshold: Double? { model.recommendedProbabilityThreshold }
    var recommendedMinimumRelativeProbability: Double? { model.recommendedMinimumRelativeProbability }
    var jsonIndentation: Int? { model.jsonIndentation }
    var samplingPreset: SamplingPreset? { model.samplingPreset }

    func tokenize(_ text: String, parsingSpecialTokens: Bool) -> [Int32] {
        model.tokenize(text, parsingSpecialTokens: parsingSpecialTokens)
    }

    func conversationText(_ messages: [ConversationMessage]) throws -> String {
        try model.conversationText(messages)
    }

    func makeContext(size: Int) throws -> any LanguageModelContext {
        RecordingContext(context: try model.makeContext(size: size), recorder: recorder)
    }
}

/// A context of the model that records its tokens after each change.
final class RecordingContext: LanguageModelContext {
    private let context: any LanguageModelContext
    private let recorder: ReplayRecorder
    private var tokens: [Int32] = []

    init(context: any LanguageModelContext, recorder: ReplayRecorder) {
        self.context = context
        self.recorder = recorder
    }

    var count: Int { context.count }

    func truncate(to count: Int) {
        context.truncate(to: count)
        tokens.removeLast(max(0, tokens.count - count))
        recorder.record(tokens)
    }

    func evaluate(_ new: [Int32]) throws -> UnsafeBufferPointer<Float> {
        tokens += new
        recorder.record(tokens)
        return try context.evaluate(new)
    }

    /// Records the unread tokens after those read: the answer as written, whole.
    func pause(unread: [Int32]) {
        recorder.record(tokens + unread)
        context.pause(unread: unread)
    }
}
