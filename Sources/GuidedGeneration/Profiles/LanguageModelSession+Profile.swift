extension LanguageModelSession {
    /// Creates a session whose instructions, tools, model and settings come from `profile`,
    /// worked out again before every request, with `history` as the conversation so far.
    ///
    /// The profile's model is the session's while the profile names it; without a
    /// ``DynamicProfile/model(_:)`` modifier, requests run on ``SystemLanguageModel/default``.
    /// The history stays across switches of model, instructions and tools.
    public convenience init(profile: sending some LanguageModelSession.DynamicProfile, history: some Collection<Transcript.Entry> = []) {
        self.init(
            model: SystemLanguageModel.default, tools: [], transcript: Transcript(entries: Array(history)),
            profile: ProfileState(AnyDynamicProfile(erasing: profile)))
        setInstructions(from: resolvedProfile())
    }

    /// Creates a session on `model` whose instructions and tools come from `dynamicInstructions`,
    /// worked out again before every request, with `history` as the conversation so far.
    public convenience init(
        model: some LanguageModel = SystemLanguageModel.default, dynamicInstructions: sending some DynamicInstructions,
        history: some Collection<Transcript.Entry> = []
    ) {
        let instructions = AnyDynamicInstructions(erasing: dynamicInstructions)
        self.init(
            model: model, tools: [], transcript: Transcript(entries: Array(history)),
            profile: ProfileState(AnyDynamicProfile(erasing: Profile(instructions: instructions))))
        setInstructions(from: resolvedProfile())
    }

    /// The profile as it comes out now, with the session's values bound for the properties it reads.
    func resolvedProfile() -> ResolvedProfile? {
        guard let profile else { return nil }
        return SessionPropertyValues.$current.withValue(properties) { profile.profile.resolvedProfile }
    }

    /// Puts the profile's instructions and tools in the transcript's instructions entry.
    func setInstructions(from resolved: ResolvedProfile?) {
        guard let resolved else { return }
        let instructions = resolved.instructions ?? ResolvedInstructions()
        guard !instructions.segments.isEmpty || !instructions.tools.isEmpty else { return }
        setInstructions(Transcript.Instructions(segments: instructions.instructions.transcriptSegments, toolDefinitions: instructions.tools.definitions))
    }

    /// What the next model request runs with: the profile worked out again (its instructions
    /// put in the transcript, its activation hooks run when another profile takes over), or the
    /// session's own model and tools.
    func turnSetup() async throws -> TurnSetup {
        guard let resolved = resolvedProfile(), let profile else { return TurnSetup(model: model, tools: tools, profile: nil) }
        setInstructions(from: resolved)
        if profile.activeBranches != resolved.branches {
            let deactivated = profile.deactivationHooks
            profile.activeBranches = resolved.branches
            profile.deactivationHooks = resolved.hooks.onDeactivate
            for hook in deactivated { try await hook() }
            for hook in resolved.hooks.onActivate { try await hook() }
        }
        let provider = resolved.model.map { ProviderModel($0, executors: executors) } ?? model
        return TurnSetup(model: provider, tools: resolved.instructions?.tools ?? [], profile: resolved)
    }

    /// What one model request of a session runs with.
    struct TurnSetup {
        let model: ProviderModel
        let tools: [any Tool]
        /// The profile as it came out, for a session made with one.
        let profile: ResolvedProfile?

        /// The request's options with the profile's settings where the request leaves them.
        func options(over options: GenerationOptions) -> GenerationOptions {
            profile?.options(over: options) ?? options
        }

        /// The transcript sent to the model: the instructions, and the history as the profile's
        /// transforms rewrite it.
        func sent(_ transcript: Transcript) -> Transcript {
            guard let profile, !profile.historyTransforms.isEmpty else { return transcript }
            let (instructions, history) = LanguageModelSession.split(transcript.entries)
            return Transcript(entries: Array(instructions) + profile.history(Array(history)))
        }

        /// Runs the profile's hooks of one kind, in order.
        func run(_ hooks: KeyPath<ProfileHooks, [() async throws -> Void]>) async throws {
            guard let profile else { return }
            for hook in profile.hooks[keyPath: hooks] { try await hook() }
        }
    }
}

/// A session's profile and which of its profiles is active. Only the request in flight reads
/// or changes it, one request at a time (the session refuses concurrent requests), and the
/// profile is handed over with `sending`: nothing else holds it.
final class ProfileState: @unchecked Sendable {
    let profile: LanguageModelSession.AnyDynamicProfile
    /// The branches of the profile that was active at the last request.
    var activeBranches: [Bool]?
    /// The hooks to run when that profile gives way to another.
    var deactivationHooks: [() async throws -> Void] = []

    init(_ profile: LanguageModelSession.AnyDynamicProfile) {
        self.profile = profile
    }
}
