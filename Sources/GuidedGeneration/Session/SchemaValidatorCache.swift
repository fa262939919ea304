import ConstrainedDecoding
import PartialJSON
import Synchronization

/// The validators that responses are checked with, one per schema value: every turn, session
/// and surface (a local model, a served one, `guided serve`) that checks against the same
/// schema shares the validator built for it, with the document read once and its patterns
/// determinized once.
final class SchemaValidatorCache: Sendable {
    /// The cache every session checks with.
    static let shared = SchemaValidatorCache()
    /// The most validators kept; past it the cache starts over, as a server seeing ever new
    /// schemas would otherwise grow without end.
    static let limit = 64

    private struct State {
        var validators: [JSONValue: SchemaValidator] = [:]
        var built = 0
    }

    private let state = Mutex(State())

    /// The validator of `document`, built on first use.
    func validator(for document: JSONValue) throws(SchemaError) -> SchemaValidator {
        if let validator = state.withLock({ $0.validators[document] }) { return validator }
        let validator = try SchemaValidator(jsonSchema: document)
        state.withLock { state in
            if state.validators.count >= Self.limit { state.validators.removeAll() }
            state.validators[document] = validator
            state.built += 1
        }
        return validator
    }

    /// How many validators this cache has built.
    var builtCount: Int { state.withLock { $0.built } }
}
