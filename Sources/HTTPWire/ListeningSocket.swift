#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket listening on a host's address and a port (0 for one the system picks).
package final class ListeningSocket: Sendable {
    package let descriptor: Int32
    /// The port it listens on.
    package let port: Int

    package init(host: String, port: Int) throws(SocketError) {
        let outcome = try SocketAddresses.first(host: host, port: port, passive: true) { info -> Result<Int32, SocketError> in
            let socket = systemSocket(info.ai_family, info.ai_socktype, info.ai_protocol)
            guard socket >= 0 else { return .failure(SocketError(SocketAddresses.lastError)) }
            var yes: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            guard bind(socket, info.ai_addr, info.ai_addrlen) == 0, listen(socket, 128) == 0 else {
                let reason = SocketAddresses.lastError
                _ = systemClose(socket)
                return .failure(SocketError(reason))
            }
            return .success(socket)
        }
        let opened: Int32
        switch outcome {
        case .success(let socket): opened = socket
        case .failure(let error): throw SocketError("cannot listen on \(host):\(port): \(error.reason)")
        }
        descriptor = opened
        self.port = Self.boundPort(of: opened) ?? port
    }

    /// Waits for the next connection; `nil` once the socket is closed.
    package func accept() -> Int32? {
        acceptWithPeer()?.descriptor
    }

    /// Waits for the next connection and gives it with the address of its peer (without the
    /// port); `nil` once the socket is closed.
    package func acceptWithPeer() -> (descriptor: Int32, peer: String)? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let connection = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(descriptor, $0, &length) }
            }
            if connection >= 0 { return (connection, Self.host(of: &storage)) }
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
    package func close() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        _ = systemClose(descriptor)
    }

    /// The numeric host of an address, IPv4 or IPv6.
    private static func host(of storage: inout sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written: UnsafePointer<CChar>? =
            switch Int32(storage.ss_family) {
            case AF_INET:
                withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                        withUnsafePointer(to: address.pointee.sin_addr) { inet_ntop(AF_INET, $0, &text, socklen_t(text.count)) }
                    }
                }
            case AF_INET6:
                withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                        withUnsafePointer(to: address.pointee.sin6_addr) { inet_ntop(AF_INET6, $0, &text, socklen_t(text.count)) }
                    }
                }
            default:
                nil
            }
        guard written != nil else { return "unknown" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
