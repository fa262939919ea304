/// The bounds a server puts on what a client sends, so that no request can take more memory or
/// time than they allow.
public struct HTTPLimits: Sendable {
    /// The most bytes of a request line and its header fields, together, and apart of a chunked
    /// body's trailer fields (beyond: 431).
    public var maximumHeaderBytes: Int
    /// The most header fields (beyond: 431).
    public var maximumHeaderCount: Int
    /// The most bytes of a body (beyond: 413).
    public var maximumBodyBytes: Int

    /// Creates limits; the defaults are 16 KiB of header, 100 fields and 8 MiB of body.
    public init(maximumHeaderBytes: Int = 16 * 1024, maximumHeaderCount: Int = 100, maximumBodyBytes: Int = 8 * 1024 * 1024) {
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumHeaderCount = maximumHeaderCount
        self.maximumBodyBytes = maximumBodyBytes
    }
}
