extension LanguageModelSession {
    /// What a session is at the moment of each request: its instructions and tools
    /// (``DynamicInstructions``) and its configuration (the model, the sampling, the token budget,
    /// tool calling, how the history is sent), written as a body that is worked out again before
    /// every request, so that the app's state can switch any of them inside one conversation.
    public protocol DynamicProfile {
        /// The profile this one is made of.
        associatedtype Body: LanguageModelSession.DynamicProfile
        /// What this profile is made of, worked out again before each request.
        @LanguageModelSession.DynamicProfileBuilder var body: Body { get }

        typealias Profile = LanguageModelSession.Profile
        typealias DynamicProfile = LanguageModelSession.DynamicProfile
    }
}

/// Profiles that hold their configuration themselves instead of in a body; their body is never
/// read.
protocol PrimitiveDynamicProfile {
    /// Adds what this holds to `resolved`, leaving what is already set.
    func resolve(into resolved: inout ResolvedProfile)
}

extension LanguageModelSession.DynamicProfile {
    /// The profile as it comes out now.
    var resolvedProfile: ResolvedProfile {
        var resolved = ResolvedProfile()
        resolve(into: &resolved)
        return resolved
    }

    func resolve(into resolved: inout ResolvedProfile) {
        if let primitive = self as? any PrimitiveDynamicProfile {
            primitive.resolve(into: &resolved)
        } else {
            body.resolve(into: &resolved)
        }
    }
}
