extension LanguageModelSession {
    /// A profile's instructions and tools, which its modifiers configure.
    ///
    /// ```swift
    /// import GuidedGeneration
    ///
    /// struct Assistant: LanguageModelSession.DynamicProfile {
    ///     var isTerse: Bool
    ///
    ///     var body: some DynamicProfile {
    ///         Profile {
    ///             Instructions("You are a helpful assistant.")
    ///             if isTerse {
    ///                 Instructions("Answer in one sentence.")
    ///             }
    ///         }
    ///         .temperature(isTerse ? 0.2 : 0.8)
    ///         .maximumResponseTokens(200)
    ///     }
    /// }
    /// ```
    public struct Profile: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
        let instructions: AnyDynamicInstructions

        /// A profile with these instructions and tools.
        public init(@DynamicInstructionsBuilder _ dynamicInstructions: () -> some DynamicInstructions) {
            instructions = AnyDynamicInstructions(erasing: dynamicInstructions())
        }

        init(instructions: AnyDynamicInstructions) {
            self.instructions = instructions
        }

        public var body: EmptyDynamicProfile { EmptyDynamicProfile() }

        func resolve(into resolved: inout ResolvedProfile) {
            if resolved.instructions == nil { resolved.instructions = instructions.resolvedInstructions }
        }
    }

    /// A profile with nothing: no instructions, no tools, the session's own settings.
    public struct EmptyDynamicProfile: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
        public init() {}
        public var body: EmptyDynamicProfile { self }
        func resolve(into resolved: inout ResolvedProfile) {}
    }
}
