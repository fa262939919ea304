import PartialJSON

/// The sampling fields of a request, both ways. OpenAI's `temperature`, `top_p`, `seed`,
/// `frequency_penalty`, `presence_penalty`, `logit_bias` and `max_tokens`, and the `top_k`,
/// `min_p`, `repeat_penalty`, `repeat_last_n` and `dry_*` extensions that llama-server (and
/// vLLM, SGLang, Ollama in part) read.
extension ChatCompletionRequest {
    /// The sampling settings: temperature 0 is greedy; `top_k` or `top_p` (with `seed`) pick
    /// random sampling; `seed` alone, nucleus sampling at 0.9 with that seed; the stages of the
    /// sampling chain as ``samplingSettings(_:)`` reads them; `preset` names a ``SamplingPreset``
    /// (`faithful` turns off the default model's own).
    static func options(_ object: JSONObject, toolMode: GenerationOptions.ToolCallingMode.Kind) throws(Invalid) -> GenerationOptions {
        let temperature = try number(object["temperature"], "temperature", in: 0...2)
        let topP = try number(object["top_p"], "top_p", in: 0...1)
        let topK = try integer(object["top_k"], "top_k", in: 0...Int(Int32.max))
        let seed = try seed(object["seed"])
        let newer = try integer(object["max_completion_tokens"], "max_completion_tokens", in: 1...Int(Int32.max))
        let older = try integer(object["max_tokens"], "max_tokens", in: 1...Int(Int32.max))
        let maximum = newer ?? older
        let sampling: GenerationOptions.SamplingMode?
        if temperature == 0 {
            sampling = .greedy
        } else if let topK, topK > 0 {
            sampling = .random(top: topK, seed: seed)
        } else if let topP {
            sampling = .random(probabilityThreshold: topP, seed: seed)
        } else if let seed {
            sampling = .random(probabilityThreshold: 0.9, seed: seed)
        } else {
            sampling = nil
        }
        let mode: GenerationOptions.ToolCallingMode =
            switch toolMode {
            case .allowed: .allowed
            case .required: .required
            case .disallowed: .disallowed
            }
        var options = GenerationOptions(
            samplingMode: sampling, temperature: temperature == 0 ? nil : temperature, maximumResponseTokens: maximum, toolCallingMode: mode)
        var settings = try samplingSettings(object)
        // Both truncations, as llama-server takes them: top-k picked the mode, top-p is a stage.
        if case .randomTopK? = sampling?.kind, let topP { settings.topP = topP }
        options.samplingSettings = settings == SamplingSettings() ? nil : settings
        if let value = object["preset"], !value.isNull {
            guard let preset = value.stringValue.flatMap(SamplingPreset.init(rawValue:)) else {
                let names = SamplingPreset.allCases.map(\.rawValue).joined(separator: ", ")
                throw Invalid(message: "'preset' must be one of \(names).", parameter: "preset")
            }
            options.samplingPreset = preset
        }
        return options
    }

    /// The seed: any 64-bit integer, signed (as most servers take it) or not (as
    /// ``GenerationOptions`` holds it and the client writes it), a negative one read as its bits.
    private static func seed(_ value: JSONValue?) throws(Invalid) -> UInt64? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.numberValue?.text, let seed = UInt64(text) ?? Int64(text).map(UInt64.init(bitPattern:)) else {
            throw Invalid(message: "'seed' must be an integer from \(Int64.min) to \(UInt64.max).", parameter: "seed")
        }
        return seed
    }

    /// The stages of the sampling chain the request sets: OpenAI's `frequency_penalty`,
    /// `presence_penalty` and `logit_bias` (token ids as keys), and llama-server's `min_p`,
    /// `repeat_penalty`, `repeat_last_n` and `dry_*` fields.
    private static func samplingSettings(_ object: JSONObject) throws(Invalid) -> SamplingSettings {
        func float(_ name: String, in range: ClosedRange<Double>) throws(Invalid) -> Float? {
            try number(object[name], name, in: range).map { Float($0) }
        }
        var settings = SamplingSettings(
            minP: try number(object["min_p"], "min_p", in: 0...1), repetitionPenalty: try float("repeat_penalty", in: 0...10),
            frequencyPenalty: try float("frequency_penalty", in: -2...2), presencePenalty: try float("presence_penalty", in: -2...2),
            penaltyWindow: try integer(object["repeat_last_n"], "repeat_last_n", in: -1...Int(Int32.max)).map { $0 < 0 ? Int(Int32.max) : $0 })
        if let multiplier = try float("dry_multiplier", in: 0...100), multiplier != 0 {
            var dry = DRYSettings(multiplier: multiplier)
            if let base = try float("dry_base", in: 1...100) { dry.base = base }
            if let length = try integer(object["dry_allowed_length"], "dry_allowed_length", in: 1...Int(Int32.max)) { dry.allowedLength = length }
            if let window = try integer(object["dry_penalty_last_n"], "dry_penalty_last_n", in: -1...Int(Int32.max)) {
                dry.window = window < 0 ? nil : window
            }
            if let value = object["dry_sequence_breakers"], !value.isNull {
                guard let list = value.arrayValue, case let breakers = list.compactMap(\.stringValue), breakers.count == list.count else {
                    throw Invalid(message: "'dry_sequence_breakers' must be an array of strings.", parameter: "dry_sequence_breakers")
                }
                dry.sequenceBreakers = breakers
            }
            settings.dry = dry
        }
        if let value = object["logit_bias"], !value.isNull {
            guard let members = value.objectValue else {
                throw Invalid(message: "'logit_bias' must be an object of token ids and biases.", parameter: "logit_bias")
            }
            var bias: [Int32: Float] = [:]
            for member in members {
                let key = member.key
                guard let token = Int32(key), token >= 0 else {
                    throw Invalid(message: "The keys of 'logit_bias' must be token ids, not '\(key)'.", parameter: "logit_bias")
                }
                bias[token] = Float(try number(member.value, "logit_bias.\(key)", in: -100...100) ?? 0)
            }
            settings.logitBias = bias.isEmpty ? nil : bias
        }
        return settings
    }

    /// The options as the protocol's fields: greedy as temperature 0, top-k or top-p sampling
    /// with its seed, the temperature, the stages of the sampling chain and the token limit.
    static func samplingMembers(_ options: GenerationOptions) -> [JSONObject.Member] {
        var members: [JSONObject.Member] = []
        switch options.samplingMode?.kind {
        case .greedy?:
            members.append(.init(key: "temperature", value: .number(0)))
        case .randomTopK(let k, let seed)?:
            // `top_k` is an extension that vLLM, SGLang, llama-server and Ollama read.
            members.append(.init(key: "top_k", value: .number(JSONNumber(k))))
            if let seed { members.append(.init(key: "seed", value: number(seed))) }
        case .randomProbabilityThreshold(let p, let seed)?:
            members.append(.init(key: "top_p", value: .number(JSONNumber(p) ?? 1)))
            if let seed { members.append(.init(key: "seed", value: number(seed))) }
        case nil:
            break
        }
        if options.samplingMode?.kind != .greedy, let temperature = options.temperature, let value = JSONNumber(temperature) {
            members.append(.init(key: "temperature", value: .number(value)))
        }
        if let settings = options.samplingSettings { members += stageMembers(settings) }
        if let maximum = options.maximumResponseTokens {
            members.append(.init(key: "max_tokens", value: .number(JSONNumber(max(1, maximum)))))
        }
        return members
    }

    /// The stages of the sampling chain as the protocol's fields: OpenAI's `frequency_penalty`,
    /// `presence_penalty` and `logit_bias`, and the `top_k`, `top_p`, `min_p`, `repeat_penalty`,
    /// `repeat_last_n` and `dry_*` extensions that llama-server (and some others) read.
    private static func stageMembers(_ settings: SamplingSettings) -> [JSONObject.Member] {
        var members: [JSONObject.Member] = []
        func add(_ key: String, _ value: Double?) {
            if let value, let number = JSONNumber(value) { members.append(.init(key: key, value: .number(number))) }
        }
        add("top_k", settings.topK.map(Double.init))
        add("top_p", settings.topP)
        add("min_p", settings.minP)
        add("repeat_penalty", settings.repetitionPenalty.map(Double.init))
        add("repeat_last_n", settings.penaltyWindow.map(Double.init))
        add("frequency_penalty", settings.frequencyPenalty.map(Double.init))
        add("presence_penalty", settings.presencePenalty.map(Double.init))
        if let dry = settings.dry {
            add("dry_multiplier", Double(dry.multiplier))
            add("dry_base", Double(dry.base))
            add("dry_allowed_length", Double(dry.allowedLength))
            add("dry_penalty_last_n", Double(dry.window ?? -1))
            members.append(.init(key: "dry_sequence_breakers", value: .array(dry.sequenceBreakers.map { .string($0) })))
        }
        if let bias = settings.logitBias, !bias.isEmpty {
            let entries = bias.sorted { $0.key < $1.key }.compactMap { token, amount in
                JSONNumber(Double(amount)).map { JSONObject.Member(key: String(token), value: .number($0)) }
            }
            members.append(.init(key: "logit_bias", value: .object(JSONObject(entries))))
        }
        return members
    }

    private static func number(_ seed: UInt64) -> JSONValue {
        .number(JSONNumber(String(seed)) ?? 0)
    }
}
