extension LanguageModelSession {
    /// A value of the session that a profile, a modifier, dynamic instructions or a tool reads
    /// and writes, such as the conversation's history (`@SessionProperty(\.history)`).
    ///
    /// It reads the values of the session whose request is running: the session binds them while
    /// it works out its profile and while it runs the profile's hooks and its tools. Read outside
    /// a request, it sees values tied to no session (an empty history, the defaults).
    @propertyWrapper
    public struct SessionProperty<Value>: Sendable {
        nonisolated(unsafe) let keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>

        /// The property at `keyPath` of the session's values.
        public init(_ keyPath: ReferenceWritableKeyPath<SessionPropertyValues, Value>) {
            self.keyPath = keyPath
        }

        public var wrappedValue: Value {
            get { (SessionPropertyValues.current ?? .unattached)[keyPath: keyPath] }
            nonmutating set { (SessionPropertyValues.current ?? .unattached)[keyPath: keyPath] = newValue }
        }
    }
}

extension Tool {
    /// A value of the session whose request calls the tool (see ``LanguageModelSession/SessionProperty``).
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension LanguageModelSession.DynamicProfile {
    /// A value of the session the profile belongs to (see ``LanguageModelSession/SessionProperty``).
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension LanguageModelSession.DynamicProfileModifier {
    /// A value of the session the modified profile belongs to (see ``LanguageModelSession/SessionProperty``).
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}

extension DynamicInstructions {
    /// A value of the session the instructions belong to (see ``LanguageModelSession/SessionProperty``).
    public typealias SessionProperty = LanguageModelSession.SessionProperty
}
