extension LanguageModelSession {
    /// Builds a ``DynamicProfile`` body: one profile, or one chosen by `if`, `switch` or an
    /// availability check.
    @resultBuilder
    public struct DynamicProfileBuilder {
        public static func buildBlock() -> EmptyDynamicProfile {
            EmptyDynamicProfile()
        }

        public static func buildBlock<Content: LanguageModelSession.DynamicProfile>(_ content: Content) -> Content {
            content
        }

        public static func buildOptional<Content: LanguageModelSession.DynamicProfile>(
            _ content: Content?
        ) -> ConditionalDynamicProfile<Content, EmptyDynamicProfile> {
            content.map { ConditionalDynamicProfile(.first($0)) } ?? ConditionalDynamicProfile(.second(EmptyDynamicProfile()))
        }

        public static func buildEither<First: LanguageModelSession.DynamicProfile, Second: LanguageModelSession.DynamicProfile>(
            first: First
        ) -> ConditionalDynamicProfile<First, Second> {
            ConditionalDynamicProfile(.first(first))
        }

        public static func buildEither<First: LanguageModelSession.DynamicProfile, Second: LanguageModelSession.DynamicProfile>(
            second: Second
        ) -> ConditionalDynamicProfile<First, Second> {
            ConditionalDynamicProfile(.second(second))
        }

        public static func buildLimitedAvailability(_ content: some LanguageModelSession.DynamicProfile) -> AnyDynamicProfile {
            AnyDynamicProfile(erasing: content)
        }
    }

    /// One of two profiles, as a condition chose.
    public struct ConditionalDynamicProfile<First: LanguageModelSession.DynamicProfile, Second: LanguageModelSession.DynamicProfile>:
        LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile
    {
        enum Choice {
            case first(First)
            case second(Second)
        }

        let choice: Choice

        init(_ choice: Choice) {
            self.choice = choice
        }

        public var body: EmptyDynamicProfile { EmptyDynamicProfile() }

        func resolve(into resolved: inout ResolvedProfile) {
            switch choice {
            case .first(let first):
                resolved.branches.append(true)
                first.resolve(into: &resolved)
            case .second(let second):
                resolved.branches.append(false)
                second.resolve(into: &resolved)
            }
        }
    }

    /// A profile of any type.
    public struct AnyDynamicProfile: LanguageModelSession.DynamicProfile, PrimitiveDynamicProfile {
        let content: any LanguageModelSession.DynamicProfile

        public init(_ dynamicProfile: any LanguageModelSession.DynamicProfile) {
            content = dynamicProfile
        }

        public init(erasing dynamicProfile: some LanguageModelSession.DynamicProfile) {
            content = dynamicProfile
        }

        public var body: EmptyDynamicProfile { EmptyDynamicProfile() }

        func resolve(into resolved: inout ResolvedProfile) {
            content.resolve(into: &resolved)
        }
    }
}
