/// A token still in the running after the mask, with its logit after the penalties.
public struct TokenCandidate: Sendable, Equatable {
    public var id: Int32
    public var logit: Float

    public init(id: Int32, logit: Float) {
        self.id = id
        self.logit = logit
    }
}
