/// Why a server could not start.
public enum ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The address cannot be listened on (in use, not this machine's, no permission).
    case cannotListen(String)

    public var description: String {
        switch self {
        case .cannotListen(let reason): reason
        }
    }
}
