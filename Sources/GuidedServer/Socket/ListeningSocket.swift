#if canImport(Glibc)
import Glibc

private let systemSocket = Glibc.socket
private let systemClose = Glibc.close
private let systemAccept = Glibc.accept
#elseif canImport(Darwin)
import Darwin

private let systemSocket = Darwin.socket
private let systemClose = Darwin.close
private let systemAccept = Darwin.accept
#endif

/// A TCP socket listening on a host's address and a port (0 for one the system picks).
final class ListeningSocket: Sendable {
    let descriptor: Int32
    /// The port it listens on.
    let port: Int

    init(host: String, port: Int) throws(ServerError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_PASSIVE
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .cannotListen("cannot resolve '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let socket = systemSocket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard socket >= 0 else {
                reason = String(cString: strerror(errno))
                continue
            }
            var yes: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            guard bind(socket, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(socket, 128) == 0 else {
                reason = String(cString: strerror(errno))
                _ = systemClose(socket)
                continue
            }
            descriptor = socket
            self.port = Self.boundPort(of: socket) ?? port
            return
        }
        throw .cannotListen("cannot listen on \(host):\(port): \(reason)")
    }

    /// Waits for the next connection; `nil` once the socket is closed.
    func accept() -> Int32? {
        while true {
            let connection = systemAccept(descriptor, nil, nil)
            if connection >= 0 { return connection }
            switch errno {
            case EINTR, ECONNABORTED, EMFILE, ENFILE, ENOBUFS, ENOMEM, EPROTO:
                if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                continue
            default:
                return nil
            }
        }
    }

    /// Stops listening; a thread waiting in ``accept()`` returns `nil`.
    func close() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        _ = systemClose(descriptor)
    }

    private static func boundPort(of socket: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) == 0 }
        }
        guard found else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) } }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) } }
        default:
            return nil
        }
    }
}
