#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The addresses of a host and port for a TCP socket, as `getaddrinfo` gives them, in its order.
package enum SocketAddresses {
    /// Calls `body` with each address of `host`:`port` until it succeeds, and gives what it
    /// gave then, or the last failure (`no address` when there was none); `passive` asks for
    /// addresses to listen on. Throws when the host cannot be resolved.
    package static func first<Value>(
        host: String, port: Int, passive: Bool, _ body: (addrinfo) -> Result<Value, SocketError>
    ) throws(SocketError) -> Result<Value, SocketError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = passive ? AI_PASSIVE : 0
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SocketError("cannot resolve '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var outcome = Result<Value, SocketError>.failure(SocketError("no address"))
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry, case .failure = outcome {
            entry = info.pointee.ai_next
            outcome = body(info.pointee)
        }
        return outcome
    }

    /// The system's message for the current `errno`.
    package static var lastError: String { String(cString: strerror(errno)) }
}
