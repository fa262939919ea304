#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Connection {
    /// Connects to `host`:`port`, trying its addresses in turn, each for at most `milliseconds`.
    /// The error names the address and what the system said (refused, unreachable, timed out).
    package static func connect(host: String, port: Int, waitingAtMost milliseconds: Int, sendTimeoutSeconds: Int) throws(SocketError) -> Connection {
        let outcome = try SocketAddresses.first(host: host, port: port, passive: false) { info -> Result<Int32, SocketError> in
            let socket = systemSocket(info.ai_family, info.ai_socktype, info.ai_protocol)
            guard socket >= 0 else { return .failure(SocketError(SocketAddresses.lastError)) }
            if let reason = connect(socket, to: info, waitingAtMost: milliseconds) {
                _ = systemClose(socket)
                return .failure(SocketError(reason))
            }
            return .success(socket)
        }
        switch outcome {
        case .success(let socket): return Connection(descriptor: socket, sendTimeoutSeconds: sendTimeoutSeconds)
        case .failure(let error): throw SocketError("cannot connect to \(host):\(port): \(error.reason)")
        }
    }

    /// Connects `socket` without blocking longer than `milliseconds`, and leaves it blocking;
    /// `nil` when connected, else why not.
    private static func connect(_ socket: Int32, to info: addrinfo, waitingAtMost milliseconds: Int) -> String? {
        let flags = fcntl(socket, F_GETFL, 0)
        guard flags >= 0, fcntl(socket, F_SETFL, flags | O_NONBLOCK) == 0 else { return SocketAddresses.lastError }
        if systemConnect(socket, info.ai_addr, info.ai_addrlen) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else { return SocketAddresses.lastError }
            var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            var ready: Int32
            repeat { ready = poll(&descriptor, 1, Int32(clamping: max(0, milliseconds))) } while ready < 0 && errno == EINTR
            if ready == 0 { return "no answer within \(milliseconds) ms" }
            if ready < 0 { return SocketAddresses.lastError }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else { return SocketAddresses.lastError }
            if failure != 0 { return String(cString: strerror(failure)) }
        }
        guard fcntl(socket, F_SETFL, flags) == 0 else { return SocketAddresses.lastError }
        return nil
    }
}
