@_exported import struct ConstrainedDecoding.DRYSettings
@_exported import struct ConstrainedDecoding.SamplingSettings

/// A named set of sampling settings that applies only where the grammar leaves the characters
/// free (inside string values without `enum`, `const`, `pattern` or `format`; not in text
/// answers), filling in the stages a request leaves unset. It changes how likely tokens are; it
/// never removes text the schema allows. Off unless asked, except on SmolLM2-135M-Instruct (by
/// name or by its file), whose default is ``smallModel``, and on the Qwen2.5-Coder instruct
/// models (1.5B, the default model, and 0.5B), whose default is ``dry``.
public enum SamplingPreset: String, Sendable, Equatable, Codable, CaseIterable {
    /// No preset: the model's distribution as it is, even on SmolLM2.
    case faithful

    /// For models of a few hundred million parameters, such as SmolLM2-135M, which
    /// fall into loops: a repetition penalty of 1.1 over the last 64 tokens, DRY at 0.8 (base
    /// 1.75, runs of 2 tokens and more), both over the response's own tokens (an answer may quote
    /// the prompt and the tools' output), and in random sampling min-p 0.05.
    case smallModel = "small-model"

    /// DRY alone at 0.8 (base 1.75, runs of 2 tokens and more, a run broken at a line break,
    /// colon, quote or asterisk), over the response's own tokens: text written again word for
    /// word within a string grows less likely the longer the repeat runs, while words and values
    /// repeat freely from one string to the next ("1 cup" in every ingredient, `["red","red"]`).
    /// The default of the Qwen2.5-Coder instruct models: the 0.5B model's sentences otherwise loop
    /// in long strings, and the 1.5B model's lists and strings run on more often.
    case dry

    /// The settings the preset stands for (`nil` for none).
    public var settings: SamplingSettings? {
        switch self {
        case .faithful: nil
        case .smallModel: SamplingSettings(minP: 0.05, repetitionPenalty: 1.1, dry: DRYSettings(multiplier: 0.8), penalizesPrompt: false)
        case .dry: SamplingSettings(dry: DRYSettings(multiplier: 0.8), penalizesPrompt: false)
        }
    }
}
