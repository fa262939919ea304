import Synchronization

/// The values a session shares with its profile, its dynamic instructions and its tools, read
/// and written through ``LanguageModelSession/SessionProperty``: the conversation's
/// ``history``, and the app's own values, declared with ``SessionPropertyEntry()`` (or as a
/// ``SessionPropertyKey`` read through the subscript).
///
/// ```swift
/// import GuidedGeneration
///
/// extension SessionPropertyValues {
///     @SessionPropertyEntry var tone: String = "plain"
/// }
///
/// struct LastTurns: LanguageModelSession.DynamicProfileModifier {
///     @SessionProperty(\.history) var history
///
///     func body(content: Content) -> some DynamicProfile {
///         content.onPrompt { history = history.suffix(6) }
///     }
/// }
/// ```
public final class SessionPropertyValues: Sendable {
    private struct Owner {
        weak var session: LanguageModelSession?
    }

    private let owner = Mutex(Owner())
    private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

    init() {}

    /// Ties the values to the session whose history they read and write.
    func attach(to session: LanguageModelSession) {
        owner.withLock { $0.session = session }
    }

    private var session: LanguageModelSession? { owner.withLock { $0.session } }

    /// The conversation so far, without the instructions: the prompts, the model's responses,
    /// its tool calls and their outputs. Setting it rewrites the session's transcript (the
    /// instructions stay first): a profile's `onPrompt` can drop old turns or put a summary in
    /// their place, and the model is then asked with what is left.
    public var history: ArraySlice<Transcript.Entry> {
        get { session?.history ?? [] }
        set { session?.history = newValue }
    }

    /// The value of `key`, its default until it is set.
    public subscript<Key: SessionPropertyKey>(key: Key.Type) -> Key.Value {
        get { values.withLock { $0[ObjectIdentifier(key)] as? Key.Value } ?? Key.defaultValue }
        set {
            guard self !== Self.unattached else { return }
            values.withLock { $0[ObjectIdentifier(key)] = newValue }
        }
    }

    /// The values of the session whose profile, instructions or tools are running.
    @TaskLocal static var current: SessionPropertyValues?

    /// What `@SessionProperty` reads outside a session's request: nothing is tied to them, the
    /// history is empty and stays so.
    static let unattached = SessionPropertyValues()
}

/// Declares a value of ``SessionPropertyValues``, in an extension of it: `@SessionPropertyEntry
/// var name: Type = defaultValue` (an optional may leave its default out, `nil`; a literal
/// default may leave the type out, as in `var count = 0`).
@attached(accessor)
@attached(peer, names: prefixed(__Key_))
public macro SessionPropertyEntry() = #externalMacro(module: "GuidedGenerationMacros", type: "SessionPropertyEntryMacro")

/// A value a session shares through ``SessionPropertyValues``, and its default.
public protocol SessionPropertyKey {
    associatedtype Value: Sendable
    /// The value until one is set.
    static var defaultValue: Value { get }
}
