/// A kind of tag that names a type outside its identifier: a filename extension or a MIME type.
public struct UTTagClass: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name of the tag class, such as `public.mime-type`.
    public let rawValue: String

    /// A tag class of this name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Filename extensions, without their dot (`png`).
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")
    /// MIME types (`image/png`).
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")

    /// The name of the tag class.
    public var description: String { rawValue }
}
