#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected TCP socket, accepted by a server or opened by a client: reads that wait at most
/// until a deadline, writes that send every byte or fail (a peer that stops reading fails them
/// after the send timeout), and a check for a peer that has gone.
package final class Connection: Sendable {
    package let descriptor: Int32

    /// What a read gave.
    package enum ReadResult {
        case bytes(Int)
        case closed
        case timedOut
    }

    /// Takes over a connected socket, which ``close()`` closes.
    package init(descriptor: Int32, sendTimeoutSeconds: Int) {
        self.descriptor = descriptor
        var timeout = timeval(tv_sec: sendTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Reads what has arrived into `buffer`, waiting at most `milliseconds`.
    package func read(into buffer: UnsafeMutableRawBufferPointer, waitingAtMost milliseconds: Int) -> ReadResult {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, Int32(clamping: max(0, milliseconds)))
            if ready < 0, errno == EINTR { continue }
            if ready == 0 { return .timedOut }
            if ready < 0 { return .closed }
            break
        }
        while true {
            let count = recv(self.descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count < 0, errno == EINTR { continue }
            return .closed
        }
    }

    /// Sends all of `bytes`; `false` when the peer is gone or stopped reading.
    package func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var sent = 0
            while sent < raw.count {
                let count = send(descriptor, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count > 0 {
                    sent += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// Whether the peer has closed its end or the connection broke (bytes it sent ahead are
    /// left to read).
    package var peerHasClosed: Bool {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        if descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return true }
        var byte: UInt8 = 0
        let count = recv(self.descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Ends both directions without releasing the descriptor: a read waiting on another thread
    /// returns at once, and the peer sees the connection close. Safe from any thread.
    package func shutdown() {
        _ = systemShutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Releases the descriptor; only once no other thread uses the connection.
    package func close() {
        _ = systemClose(descriptor)
    }
}
