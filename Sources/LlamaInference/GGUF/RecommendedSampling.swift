/// The sampling a model's authors recommend in its GGUF file's `general.sampling.*` keys (as
/// llama.cpp reads them), used where a request leaves a setting to the engine.
public struct RecommendedSampling: Sendable, Equatable {
    /// The temperature (`general.sampling.temp`).
    public var temperature: Double?
    /// The nucleus share (`general.sampling.top_p`).
    public var probabilityThreshold: Double?
    /// The share of the best token's probability below which tokens are left out
    /// (`general.sampling.min_p`).
    public var minimumRelativeProbability: Double?

    public init(temperature: Double? = nil, probabilityThreshold: Double? = nil, minimumRelativeProbability: Double? = nil) {
        self.temperature = temperature
        self.probabilityThreshold = probabilityThreshold
        self.minimumRelativeProbability = minimumRelativeProbability
    }

    /// The settings of `file`'s `general.sampling.*` keys that hold a usable value (a number; a
    /// temperature of 0 or more, shares above 0 and at most 1); the others stay unset, as they
    /// are advice rather than part of the model.
    public init(file: GGUFFile) {
        func number(_ key: String, _ isUsable: (Double) -> Bool) -> Double? {
            guard let value = try? file.number("general.sampling." + key), value.isFinite, isUsable(value) else { return nil }
            return value
        }
        self.init(
            temperature: number("temp") { $0 >= 0 },
            probabilityThreshold: number("top_p") { $0 > 0 && $0 <= 1 },
            minimumRelativeProbability: number("min_p") { $0 >= 0 && $0 <= 1 })
    }
}
