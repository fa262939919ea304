import HTTPWire

/// The body of a request sent with `Transfer-Encoding: chunked` (RFC 9112, 7.1), decoded as its
/// bytes arrive: chunk sizes in hexadecimal with their extensions skipped, the chunks' data, and
/// the trailer fields checked and skipped. The body, the size lines and the trailer section are bounded by
/// ``HTTPLimits``; what breaks the syntax is a typed error.
struct ChunkedBody: Sendable {
    private enum Stage: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
    }

    /// The most bytes of a chunk-size line with its extensions.
    private static let maximumSizeLine = 1024

    private var stage = Stage.size
    private(set) var body: [UInt8] = []
    private var trailerBytes = 0
    private let limits: HTTPLimits

    init(limits: HTTPLimits) {
        self.limits = limits
    }

    /// Reads what it can of `buffer` from `start`, moving `start` past what it read; `true`
    /// when the body is complete.
    mutating func read(_ buffer: [UInt8], from start: inout Int) throws(HTTPRequestError) -> Bool {
        while true {
            switch stage {
            case .size:
                guard let end = try Self.lineEnd(in: buffer, from: start) else {
                    if buffer.count - start > Self.maximumSizeLine { throw .malformed("a chunk size line is too long") }
                    return false
                }
                let size = try Self.size(buffer[start..<end])
                start = end + 2
                guard size <= limits.maximumBodyBytes - body.count else {
                    throw .bodyTooLarge(length: body.count + size, limit: limits.maximumBodyBytes)
                }
                stage = size == 0 ? .trailers : .data(remaining: size)
            case .data(let remaining):
                let available = min(remaining, buffer.count - start)
                guard available > 0 else { return false }
                body.append(contentsOf: buffer[start..<(start + available)])
                start += available
                stage = available == remaining ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard buffer.count - start >= 2 else { return false }
                guard buffer[start] == 13, buffer[start + 1] == 10 else { throw .malformed("a chunk's data does not end with CRLF") }
                start += 2
                stage = .size
            case .trailers:
                let end = try Self.lineEnd(in: buffer, from: start)
                guard trailerBytes + ((end ?? buffer.count) - start) <= limits.maximumHeaderBytes else { throw .headerTooLarge }
                guard let end else { return false }
                trailerBytes += end + 2 - start
                let isLast = end == start
                if !isLast {
                    do {
                        _ = try HTTPHeadSyntax.field(buffer[start..<end])
                    } catch {
                        throw .malformed(error.reason)
                    }
                }
                start = end + 2
                if isLast { return true }
            }
        }
    }

    /// Where the CRLF that ends the line at `start` begins, when it has arrived; a lone line
    /// feed is refused.
    private static func lineEnd(in buffer: [UInt8], from start: Int) throws(HTTPRequestError) -> Int? {
        guard let feed = buffer[start...].firstIndex(of: 10) else { return nil }
        guard feed > start, buffer[feed - 1] == 13 else { throw .malformed("a line feed without its carriage return in a chunked body") }
        return feed - 1
    }

    /// The size of a chunk (``HTTPHeadSyntax/chunkSize(_:)``).
    private static func size(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
        do {
            return try HTTPHeadSyntax.chunkSize(line)
        } catch {
            throw .malformed(error.reason)
        }
    }
}
