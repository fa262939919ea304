/// A body sent with `Transfer-Encoding: chunked` (RFC 9112, 7.1), decoded as its bytes arrive:
/// the one decoder of the server's request parser and the client's response parser. It reads
/// chunk sizes in hexadecimal (``HTTPHeadSyntax/chunkSize(_:)``) with their extensions skipped,
/// the chunks' data, and the trailer fields, checked and skipped. A size line, the trailer
/// section and, where the reader bounds it, the whole body are held within ``Limits``, each
/// refused as soon as it passes its bound; whatever the bytes, the decoder gives data, a wait
/// for more bytes, the end, or a ``Violation``, which each side turns into its own error.
package struct ChunkedDecoder: Sendable {
    /// The bounds of one body.
    package struct Limits: Sendable, Equatable {
        /// The most bytes of a chunk-size line with its extensions, without its CRLF.
        package var maximumSizeLineBytes: Int
        /// The most bytes of the trailer section: its field lines with their CRLFs, without the
        /// blank line that ends it.
        package var maximumTrailerBytes: Int
        /// The most bytes of the body, checked against the chunk sizes as they arrive (before
        /// the data), or `nil` where the reader streams the body on and keeps none of it.
        package var maximumBodyBytes: Int?

        /// Limits of `maximumTrailerBytes` of trailer fields, 1 KiB per chunk-size line and, by
        /// default, no bound on the body.
        package init(maximumSizeLineBytes: Int = 1024, maximumTrailerBytes: Int, maximumBodyBytes: Int? = nil) {
            self.maximumSizeLineBytes = maximumSizeLineBytes
            self.maximumTrailerBytes = maximumTrailerBytes
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    /// Why bytes are not a chunked body within the limits.
    package enum Violation: Error, Equatable, Sendable {
        /// The bytes break the syntax (a size that is not hexadecimal, a line feed without its
        /// carriage return, a chunk longer than its size, a bad trailer field, a size line past
        /// its limit); the reason says which.
        case malformed(String)
        /// The trailer section passes ``Limits/maximumTrailerBytes``.
        case trailersTooLarge(limit: Int)
        /// The chunk sizes add up past ``Limits/maximumBodyBytes``: `length` is their sum so far.
        case bodyTooLarge(length: Int, limit: Int)
        /// The bytes ended before the body did (``ChunkedDecoder/finish()``); the reason says where.
        case incomplete(String)
    }

    /// What the decoder read.
    package enum Step: Equatable, Sendable {
        /// Bytes of the body: this range of the buffer given to ``ChunkedDecoder/next(in:from:)``.
        case data(Range<Int>)
        /// The last chunk and the trailer section have been read: the body is complete.
        case end
    }

    private enum Stage: Sendable, Equatable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
        case done
    }

    /// Where a line's end was looked for.
    private enum LineEnd {
        /// The CRLF begins at this index.
        case at(Int)
        /// Not there yet, and the line is still within its limit.
        case notYet
        /// Not within the limit.
        case beyondLimit
    }

    /// The bounds this decoder keeps.
    package let limits: Limits
    private var stage = Stage.size
    /// How many bytes of the line that begins at `start` were searched for its end already, so
    /// that a line arriving a byte at a time is searched once.
    private var searched = 0
    /// The sum of the chunk sizes read so far.
    private var bodyBytes = 0
    /// The bytes of the trailer field lines read so far, with their CRLFs.
    private var trailerBytes = 0

    /// A decoder for one body.
    package init(limits: Limits) {
        self.limits = limits
    }

    /// Whether the last chunk and the trailer section have been read.
    package var isComplete: Bool { stage == .done }

    /// The next step from the bytes of `buffer` at `start`, moving `start` past the bytes read;
    /// `nil` when more bytes are needed (or the body has ended). Between calls the reader may
    /// drop the bytes before `start` (moving `start` with them) and append new ones, but keeps
    /// the bytes from `start` on as they were.
    package mutating func next(in buffer: [UInt8], from start: inout Int) throws(Violation) -> Step? {
        while true {
            switch stage {
            case .size:
                let end: Int
                switch try lineEnd(in: buffer, from: start, limit: limits.maximumSizeLineBytes) {
                case .at(let index): end = index
                case .notYet: return nil
                case .beyondLimit: throw .malformed("a chunk-size line longer than \(limits.maximumSizeLineBytes) bytes")
                }
                let size: Int
                do {
                    size = try HTTPHeadSyntax.chunkSize(buffer[start..<end])
                } catch {
                    throw .malformed(error.reason)
                }
                if let limit = limits.maximumBodyBytes, size > limit - bodyBytes {
                    throw .bodyTooLarge(length: bodyBytes + size, limit: limit)
                }
                bodyBytes += size
                start = end + 2
                stage = size == 0 ? .trailers : .data(remaining: size)
            case .data(let remaining):
                let count = min(remaining, buffer.count - start)
                guard count > 0 else { return nil }
                let range = start..<(start + count)
                start += count
                stage = count == remaining ? .dataEnd : .data(remaining: remaining - count)
                return .data(range)
            case .dataEnd:
                // Refused at the first byte that is not the CRLF, without waiting for the second.
                guard start < buffer.count else { return nil }
                guard buffer[start] == 13, start + 1 == buffer.count || buffer[start + 1] == 10 else {
                    throw .malformed("a chunk longer than its size (its data does not end with CRLF)")
                }
                guard start + 1 < buffer.count else { return nil }
                start += 2
                stage = .size
            case .trailers:
                // The blank line that ends the section always fits; a field line must fit in
                // what is left of the section's bound, its CRLF included.
                let limit = max(0, limits.maximumTrailerBytes - trailerBytes - 2)
                let end: Int
                switch try lineEnd(in: buffer, from: start, limit: limit) {
                case .at(let index): end = index
                case .notYet: return nil
                case .beyondLimit: throw .trailersTooLarge(limit: limits.maximumTrailerBytes)
                }
                if end == start {
                    start += 2
                    stage = .done
                    return .end
                }
                do {
                    _ = try HTTPHeadSyntax.field(buffer[start..<end])
                } catch {
                    throw .malformed(error.reason)
                }
                trailerBytes += end + 2 - start
                start = end + 2
            case .done:
                return nil
            }
        }
    }

    /// What the end of the bytes means: nothing when the body is complete, else
    /// ``Violation/incomplete(_:)``, which says where the body was cut.
    package func finish() throws(Violation) {
        switch stage {
        case .done:
            return
        case .size, .dataEnd:
            throw .incomplete("the body ended before its last chunk")
        case .data(let remaining):
            throw .incomplete("the body ended \(remaining) bytes before the end of a chunk")
        case .trailers:
            throw .incomplete("the body ended within its trailer fields")
        }
    }

    /// Where the CRLF that ends the line at `start` begins, once it has arrived within `limit`
    /// bytes of line; a line feed without its carriage return is refused at once.
    private mutating func lineEnd(in buffer: [UInt8], from start: Int, limit: Int) throws(Violation) -> LineEnd {
        // The line feed may come at most `limit` + 1 bytes after the line's start.
        let end = min(buffer.count, start + limit + 2)
        var index = start + searched
        while index < end {
            if buffer[index] == 10 {
                guard index > start, buffer[index - 1] == 13 else {
                    throw .malformed("a line feed without its carriage return in a chunked body")
                }
                searched = 0
                return .at(index - 1)
            }
            index += 1
        }
        searched = end - start
        return end == start + limit + 2 ? .beyondLimit : .notYet
    }
}
