extension LanguageModelSession {
    /// A change to a profile written as a profile of its own: its body wraps `content`, the
    /// profile it modifies, in other modifiers (Apple's `rollingWindow` is one such).
    public protocol DynamicProfileModifier {
        /// The profile the modifier makes.
        associatedtype Body: LanguageModelSession.DynamicProfile
        /// The profile the modifier makes of `content`.
        @LanguageModelSession.DynamicProfileBuilder func body(content: Content) -> Body

        typealias Content = LanguageModelSession.DynamicProfileModifierContent
        typealias DynamicProfile = LanguageModelSession.DynamicProfile
    }

    /// The profile a ``DynamicProfileModifier`` modifies, as its body receives it.
    public struct DynamicProfileModifierContent: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
        let content: AnyDynamicProfile

        public var body: EmptyDynamicProfile { EmptyDynamicProfile() }

        func resolve(into resolved: inout ResolvedProfile) {
            content.resolve(into: &resolved)
        }
    }

    /// A profile with a modifier applied.
    public struct ModifiedDynamicProfile<Content: LanguageModelSession.DynamicProfile, Modifier: LanguageModelSession.DynamicProfileModifier>:
        LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile
    {
        let content: Content
        let modifier: Modifier

        public var body: EmptyDynamicProfile { EmptyDynamicProfile() }

        func resolve(into resolved: inout ResolvedProfile) {
            if let setting = modifier as? any ProfileSetting {
                // The content first: a setting nearer the profile wins over this one.
                content.resolve(into: &resolved)
                setting.apply(to: &resolved)
            } else {
                modifier.body(content: DynamicProfileModifierContent(content: AnyDynamicProfile(erasing: content))).resolve(into: &resolved)
            }
        }
    }
}

/// A modifier this library applies itself: it sets what the profile leaves unset, or adds a
/// transform or a hook.
protocol ProfileSetting {
    func apply(to resolved: inout ResolvedProfile)
}

/// A setting given as a change to the resolved profile.
struct ProfileSettingModifier: LanguageModelSession.DynamicProfileModifier, ProfileSetting {
    let change: (inout ResolvedProfile) -> Void

    func body(content: Content) -> Content { content }

    func apply(to resolved: inout ResolvedProfile) {
        change(&resolved)
    }
}

extension LanguageModelSession.DynamicProfile {
    /// The profile with `modifier` applied.
    public func modifier<Modifier: LanguageModelSession.DynamicProfileModifier>(
        _ modifier: Modifier
    ) -> LanguageModelSession.ModifiedDynamicProfile<Self, Modifier> {
        LanguageModelSession.ModifiedDynamicProfile(content: self, modifier: modifier)
    }

    private func setting(_ change: @escaping (inout ResolvedProfile) -> Void) -> some LanguageModelSession.DynamicProfile {
        modifier(ProfileSettingModifier(change: change))
    }

    /// Requests run on `model` while this profile is active; the history stays.
    public func model(_ model: any LanguageModel) -> some LanguageModelSession.DynamicProfile {
        setting { if $0.model == nil { $0.model = model } }
    }

    /// The temperature of requests that set none.
    public func temperature(_ temperature: Double?) -> some LanguageModelSession.DynamicProfile {
        setting { if $0.temperature == nil { $0.temperature = temperature } }
    }

    /// The sampling mode of requests that set none.
    public func samplingMode(_ mode: GenerationOptions.SamplingMode?) -> some LanguageModelSession.DynamicProfile {
        setting { if $0.samplingMode == nil { $0.samplingMode = mode } }
    }

    /// How much the model reasons, for models that do.
    public func reasoningLevel(_ level: ContextOptions.ReasoningLevel?) -> some LanguageModelSession.DynamicProfile {
        setting { if $0.reasoningLevel == nil { $0.reasoningLevel = level } }
    }

    /// The response budget of requests that set none.
    public func maximumResponseTokens(_ tokens: Int?) -> some LanguageModelSession.DynamicProfile {
        setting { if $0.maximumResponseTokens == nil { $0.maximumResponseTokens = tokens } }
    }

    /// Whether the model may, must or must not call tools, for requests that say nothing.
    public func toolCallingMode(_ mode: GenerationOptions.ToolCallingMode?) -> some LanguageModelSession.DynamicProfile {
        setting { if $0.toolCallingMode == nil { $0.toolCallingMode = mode } }
    }

    /// What the transcript keeps of a request that fails while this profile is active.
    public func transcriptErrorHandlingPolicy(_ policy: TranscriptErrorHandlingPolicy?) -> some LanguageModelSession.DynamicProfile {
        setting { if $0.transcriptErrorHandlingPolicy == nil { $0.transcriptErrorHandlingPolicy = policy } }
    }

    /// Rewrites the history sent to the model, leaving the session's transcript as it is.
    public func historyTransform(_ transform: @escaping ([Transcript.Entry]) -> [Transcript.Entry]) -> some LanguageModelSession.DynamicProfile {
        setting { $0.historyTransforms.append(transform) }
    }

    /// Runs `action` when a prompt arrives, before the model is asked.
    public func onPrompt(perform action: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        setting { $0.hooks.onPrompt.append(action) }
    }

    /// Runs `action` after the model's response.
    public func onResponse(perform action: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        setting { $0.hooks.onResponse.append(action) }
    }

    /// Runs `action` for each tool call the model makes.
    public func onToolCall(perform action: @escaping (Transcript.ToolCall) async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        setting { $0.hooks.onToolCall.append(action) }
    }

    /// Runs `action` after each tool's output.
    public func onToolOutput(perform action: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        setting { $0.hooks.onToolOutput.append(action) }
    }

    /// Runs `action` when the model has reasoned.
    public func onReasoning(perform action: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        setting { $0.hooks.onReasoning.append(action) }
    }

    /// Runs `action` when this profile becomes the active one.
    public func onActivate(perform action: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        setting { $0.hooks.onActivate.append(action) }
    }

    /// Runs `action` when another profile takes this one's place.
    public func onDeactivate(perform action: @escaping () async throws -> Void) -> some LanguageModelSession.DynamicProfile {
        setting { $0.hooks.onDeactivate.append(action) }
    }
}
