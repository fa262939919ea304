@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import Foundation

/// The compiler's plugin protocol over standard input and output: each message is an 8-byte
/// little-endian length followed by that many bytes of JSON; a length of zero ends it.
struct StandardIOConnection: MessageConnection {
    /// Why the connection cannot go on.
    enum ConnectionError: Error, CustomStringConvertible {
        case truncatedMessage(expected: Int, received: Int)
        case messageTooLarge(Int)

        var description: String {
            switch self {
            case .truncatedMessage(let expected, let received): "the host sent \(received) of \(expected) bytes"
            case .messageTooLarge(let size): "a message of \(size) bytes is larger than any the compiler sends"
            }
        }
    }

    private let input: FileHandle
    private let output: FileHandle

    /// A connection over standard input and output. Messages own standard output: anything else
    /// printed goes to standard error instead.
    init() {
        let duplicate = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        self.init(input: .standardInput, output: FileHandle(fileDescriptor: duplicate, closeOnDealloc: true))
    }

    /// A connection that reads messages from `input` and writes them to `output`.
    init(input: FileHandle, output: FileHandle) {
        self.input = input
        self.output = output
    }

    func sendMessage<TX: Encodable>(_ message: TX) throws {
        let payload = try JSONEncoder().encode(message)
        var length = UInt64(payload.count).littleEndian
        var frame = Data(bytes: &length, count: 8)
        frame.append(payload)
        try output.write(contentsOf: frame)
    }

    func waitForNextMessage<RX: Decodable>(_ type: RX.Type) throws -> RX? {
        guard let header = try read(count: 8, allowingEndOfInput: true) else { return nil }
        let length = header.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        guard length < 1 << 30 else { throw ConnectionError.messageTooLarge(Int(clamping: length)) }
        // The compiler ends the conversation with an empty message (no JSON is empty): the
        // plugin stops as at the end of its input.
        guard length > 0 else { return nil }
        guard let payload = try read(count: Int(length), allowingEndOfInput: false) else { return nil }
        return try JSONDecoder().decode(RX.self, from: payload)
    }

    /// Reads exactly `count` bytes; `nil` at a clean end of input when that is allowed.
    private func read(count: Int, allowingEndOfInput: Bool) throws -> Data? {
        var data = Data()
        while data.count < count {
            guard let chunk = try input.read(upToCount: count - data.count), !chunk.isEmpty else {
                if data.isEmpty, allowingEndOfInput { return nil }
                throw ConnectionError.truncatedMessage(expected: count, received: data.count)
            }
            data.append(chunk)
        }
        return data
    }
}
