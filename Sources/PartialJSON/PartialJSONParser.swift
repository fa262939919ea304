/// An incremental parser for RFC 8259 JSON.
///
/// Feed it bytes in any chunking, one byte at a time, a token at a time or all at once; the
/// outcome never depends on where the chunks split. After each feed, ``snapshot`` shows the value
/// parsed so far, and ``finish()`` returns the complete value or says precisely why the text is
/// not JSON.
///
/// ```swift
/// let parser = PartialJSONParser()
/// try parser.feed(#"{"title": "A story of"#)
/// parser.snapshot.value   // {"title": "A story of"}, the object and the string incomplete
/// try parser.feed(#" dragons"}"#)
/// let value = try parser.finish()
/// ```
///
/// Policies where RFC 8259 leaves a choice:
/// - **Errors are found as early as possible.** A feed throws as soon as the bytes so far cannot
///   begin any JSON text, and never while they still can: a valid prefix is an error only at
///   ``finish()``. After an error every later call throws the same error.
/// - **Duplicate member names** are kept, in order (see ``JSONObject``).
/// - **Numbers** are kept exactly as written, whatever their size (see ``JSONNumber``).
/// - **Nesting** deeper than ``maximumDepth`` arrays and objects is an error; the parser itself
///   never recurses, so no input can overflow the stack.
/// - **Encoding**: the input must be UTF-8, strictly: overlong forms, encoded surrogates, bytes
///   past U+10FFFF and a byte order mark are errors. A `\u` escape of a lone UTF-16 surrogate is
///   an error too, since a Swift `String` cannot hold it; surrogate pairs are joined.
///
/// Cost: feeding is linear in the bytes fed, and taking a snapshot costs constant time, so
/// streaming a document of any size with a snapshot after every few bytes stays linear. Reading a
/// snapshot costs what is read.
///
/// A parser is a reference type meant for one task at a time; it is not `Sendable`.
public final class PartialJSONParser {
    /// The nesting limit used unless another is given: 512 arrays and objects.
    public static let defaultMaximumDepth = 512

    /// The largest nesting limit a parser accepts; larger requests are lowered to it, so that
    /// the recursive traversals of the resulting values stay far from the stack's limit.
    public static let depthCeiling = 10_000

    /// How deeply arrays and objects may nest.
    public let maximumDepth: Int

    private let storage: ParseStorage

    /// Creates a parser.
    ///
    /// - Parameter maximumDepth: how deeply arrays and objects may nest, at least 1 and at most
    ///   ``depthCeiling``; the default is 512.
    public init(maximumDepth: Int = PartialJSONParser.defaultMaximumDepth) {
        self.maximumDepth = min(max(maximumDepth, 1), Self.depthCeiling)
        storage = ParseStorage(maximumDepth: self.maximumDepth)
    }

    /// The number of bytes fed so far.
    public var byteCount: Int { storage.core.pointee.consumed }

    /// Feeds the next bytes of the document.
    ///
    /// - Throws: ``JSONParseError`` when the bytes so far cannot begin any JSON text.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
        try storage.core.pointee.feed(bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Feeds the next bytes of the document.
    ///
    /// - Throws: ``JSONParseError`` when the bytes so far cannot begin any JSON text.
    public func feed(_ bytes: some Sequence<UInt8>) throws(JSONParseError) {
        var failure: JSONParseError?
        let fed: Void? = bytes.withContiguousStorageIfAvailable { failure = feedReportingError(UnsafeRawBufferPointer($0)) }
        if fed == nil {
            Array(bytes).withUnsafeBytes { failure = feedReportingError($0) }
        }
        if let failure { throw failure }
    }

    /// Feeds the next text of the document, as UTF-8.
    ///
    /// - Throws: ``JSONParseError`` when the text so far cannot begin any JSON text.
    public func feed(_ text: String) throws(JSONParseError) {
        var text = text
        if let failure = text.withUTF8({ feedReportingError(UnsafeRawBufferPointer($0)) }) { throw failure }
    }

    private func feedReportingError(_ bytes: UnsafeRawBufferPointer) -> JSONParseError? {
        do throws(JSONParseError) {
            try feed(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// The value parsed so far. Taking it costs constant time; it never changes afterwards.
    public var snapshot: JSONSnapshot {
        let bounds = storage.core.pointee.snapshotBounds
        return JSONSnapshot(storage: storage, nodeCount: bounds.nodeCount, clock: bounds.clock, byteCount: bounds.byteCount)
    }

    /// Ends the document and returns its value.
    ///
    /// A number at the very end completes here. Calling it again returns the same value.
    /// - Throws: ``JSONParseError`` when the document is incomplete or was invalid.
    public func finish() throws(JSONParseError) -> JSONValue {
        try storage.core.pointee.finish()
        return storage.value(at: 0)
    }
}
