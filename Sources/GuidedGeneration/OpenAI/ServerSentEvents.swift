import Foundation

/// Splits a server-sent event stream into the data of its events, as bytes arrive in pieces of
/// any size: `data:` lines (one space after the colon dropped) joined by newlines, an event
/// ending at an empty line; comments and other fields are skipped.
struct ServerSentEvents {
    private var line: [UInt8] = []
    private var data: [String] = []

    /// Reads more of the stream; returns the data of the events it completed.
    mutating func read(_ bytes: some Sequence<UInt8>) -> [String] {
        var events: [String] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.isEmpty {
                if !data.isEmpty { events.append(data.joined(separator: "\n")) }
                data.removeAll()
            } else if line.starts(with: "data:".utf8) {
                var value = line.dropFirst(5)
                if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
                data.append(String(decoding: value, as: UTF8.self))
            }
            line.removeAll(keepingCapacity: true)
        }
        return events
    }

    /// The data of an event the stream ended without closing.
    mutating func finish() -> [String] {
        var events = read([UInt8(ascii: "\n")])
        if !data.isEmpty { events.append(data.joined(separator: "\n")) }
        data.removeAll()
        return events
    }
}
