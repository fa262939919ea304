import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs blocking socket work on a thread of its own, so that a test waiting for the server never
/// holds one of the few threads the server's tasks run on.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// A client on a plain socket, for sending a server what no HTTP library would send.
final class RawClient: Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What the server sends until it closes the connection, or until `until` appears in it,
    /// or `seconds` pass.
    func receive(until marker: String? = nil, seconds: Double = 120) async throws -> String {
        try await offPool { self.receiveBlocking(until: marker, seconds: seconds) }
    }

    private func receiveBlocking(until marker: String?, seconds: Double) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = recv(self.descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Ends the sending side of the connection, as a client does that has no more to send and
    /// waits for the answer.
    func endSending() {
        Glibc.shutdown(descriptor, Int32(SHUT_WR))
    }

    func close() {
        Glibc.close(descriptor)
    }

    /// Sends one request with `Connection: close` and returns the whole response.
    static func exchange(port: Int, _ text: String) async throws -> String {
        try await offPool {
            let client = try RawClient(port: port)
            defer { client.close() }
            client.send(text)
            return client.receiveBlocking(until: nil, seconds: 300)
        }
    }

    /// A POST of a JSON body.
    static func post(_ path: String, _ body: String, headers: String = "") -> String {
        "POST \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
