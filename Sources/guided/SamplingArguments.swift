import Foundation
import GuidedGeneration

/// The command-line options of the sampling chain's stages, named as llama.cpp's (`--repeat-penalty`,
/// `--dry-multiplier`, ...), with the preset, the layout and fast-forward.
enum SamplingArguments {
    /// The options this reads, for the usage text.
    static let usage = """
        --repeat-penalty X, --repeat-last-n N, --frequency-penalty X, --presence-penalty X,
                   --dry-multiplier X, --dry-base X, --dry-allowed-length N, --dry-penalty-last-n N,
                   --dry-sequence-breaker S (repeatable), --min-p P, --logit-bias TOKEN(+|-)BIAS
                   (repeatable; -inf rules the token out): stages of the sampling chain, each
                   off unless given; --preset small-model|dry|faithful: a repetition penalty, DRY
                   and min-p where the schema leaves the text free (SmolLM2's default),
                   DRY alone there, or none (every other model's); --layout compact|indented|free;
                   --no-fast-forward: the model writes the text the schema forces too
        """

    /// Reads `argument` (with its value from `value`) into `options`; `false` when it is not one
    /// of these options.
    static func read(_ argument: String, into options: inout GenerationOptions, value: () throws(CommandError) -> String) throws(CommandError) -> Bool {
        var settings = options.samplingSettings ?? SamplingSettings()
        var dry: DRYSettings { settings.dry ?? DRYSettings(multiplier: 0) }
        func number<T: LosslessStringConvertible>(_ type: T.Type) throws(CommandError) -> T {
            let text = try value()
            guard let number = T(text) else { throw .usage("\(argument) needs a number, not '\(text)'") }
            return number
        }
        switch argument {
        case "--repeat-penalty": settings.repetitionPenalty = try number(Float.self)
        case "--repeat-last-n": settings.penaltyWindow = try number(Int.self)
        case "--frequency-penalty": settings.frequencyPenalty = try number(Float.self)
        case "--presence-penalty": settings.presencePenalty = try number(Float.self)
        case "--min-p": settings.minP = try number(Double.self)
        case "--dry-multiplier":
            let multiplier = try number(Float.self)
            settings.dry = with(dry) { $0.multiplier = multiplier }
        case "--dry-base":
            let base = try number(Float.self)
            settings.dry = with(dry) { $0.base = base }
        case "--dry-allowed-length":
            let length = try number(Int.self)
            settings.dry = with(dry) { $0.allowedLength = length }
        case "--dry-penalty-last-n":
            let count = try number(Int.self)
            settings.dry = with(dry) { $0.window = count < 0 ? nil : count }
        case "--dry-sequence-breaker":
            let breaker = try value()
            // The first breaker given replaces llama.cpp's defaults.
            settings.dry = with(dry) {
                $0.sequenceBreakers = ($0.sequenceBreakers == DRYSettings.defaultSequenceBreakers ? [] : $0.sequenceBreakers) + [breaker]
            }
        case "--logit-bias":
            let text = try value()
            guard let sign = text.lastIndex(where: { $0 == "+" || $0 == "-" }), let token = Int32(text[..<sign]),
                let bias = Float(text[sign...].replacingOccurrences(of: "inf", with: "infinity"))
            else { throw .usage("--logit-bias needs TOKEN+BIAS or TOKEN-BIAS (a token id and a number, or -inf), not '\(text)'") }
            settings.logitBias = (settings.logitBias ?? [:]).merging([token: bias]) { $1 }
        case "--preset":
            let name = try value()
            guard let preset = SamplingPreset(rawValue: name) else {
                throw .usage("--preset needs one of \(SamplingPreset.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            options.samplingPreset = preset
            return true
        case "--layout":
            let name = try value()
            switch name {
            case "compact": options.jsonLayout = .compact
            case "indented": options.jsonLayout = .indented(2)
            case "free": options.jsonLayout = .free
            default: throw .usage("--layout needs compact, indented or free, not '\(name)'")
            }
            return true
        case "--no-fast-forward":
            options.fastForwardsForcedText = false
            return true
        default:
            return false
        }
        options.samplingSettings = settings
        return true
    }

    private static func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
        var value = value
        change(&value)
        return value
    }
}
