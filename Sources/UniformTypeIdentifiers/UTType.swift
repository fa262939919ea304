import Foundation
import Synchronization

/// A uniform type identifier: the name of a kind of data (`public.png`, `public.json`,
/// `com.example.recipe`), the kinds it conforms to (a PNG file is an image, an image is data),
/// and its tags (filename extensions, MIME types).
///
/// This is the form of Apple's `UTType` for platforms without the UniformTypeIdentifiers
/// framework. There is no system database of types here: the types it knows are the common
/// public ones (``png``, ``json``, ``plainText``, ...), those a program declares with
/// ``init(exportedAs:conformingTo:)`` or ``init(importedAs:conformingTo:)``, and dynamic types
/// made from a tag the table lacks (``init(mimeType:conformingTo:)``), whose identifier holds
/// the tag and the supertype, so that they survive encoding.
///
/// ```swift
/// import UniformTypeIdentifiers
///
/// extension UTType {
///     static let recipe = UTType(exportedAs: "com.example.recipe", conformingTo: .json)
/// }
///
/// print(UTType.recipe.conforms(to: .text))          // true: JSON is text
/// print(UTType(mimeType: "image/png") == .png)      // true
/// print(UTType(filenameExtension: "jpg")?.identifier ?? "")  // public.jpeg
/// ```
///
/// Two types are equal when their identifiers are; a type encodes as its identifier.
public struct UTType: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The type's identifier, such as `public.png`.
    public let identifier: String
    /// What the type was declared with: its direct supertypes, tags and description.
    let declaration: Declaration

    init(declaration: Declaration) {
        identifier = declaration.identifier
        self.declaration = declaration
    }

    /// The type of this identifier: a public type of the table, one the program declared, or a
    /// dynamic type (`dyn.` identifiers, as ``init(mimeType:conformingTo:)`` makes them); `nil`
    /// for an identifier of none of these.
    public init?(_ identifier: String) {
        guard let declaration = Declaration.find(identifier) else { return nil }
        self.init(declaration: declaration)
    }

    /// Declares a type that the program owns, conforming to `parentType` (to ``data`` when
    /// `nil`), and returns it. The declaration lasts as long as the process: afterwards
    /// ``init(_:)`` and decoding find the type with its supertypes.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(declaring: identifier, conformingTo: parentType, exported: true)
    }

    /// Declares a type that another program owns, conforming to `parentType` (to ``data`` when
    /// `nil`), and returns it; a type already declared keeps its declaration.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(declaring: identifier, conformingTo: parentType, exported: false)
    }

    private init(declaring identifier: String, conformingTo parentType: UTType?, exported: Bool) {
        if let known = Declaration.find(identifier), known.isDeclared, !exported || known.isBuiltIn {
            self.init(declaration: known)
            return
        }
        let parents = [(parentType ?? .data).identifier]
        let declaration = Declaration(identifier: identifier, parents: parents, mimeTypes: [], filenameExtensions: [], description: nil)
        Declaration.declare(declaration)
        self.init(declaration: declaration)
    }

    /// The type of files with this extension (without its dot) that conforms to `supertype`:
    /// a known type when there is one, else a dynamic type; `nil` for an empty extension.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// The type of content of this MIME type (`image/png`) that conforms to `supertype`: a known
    /// type when there is one, else a dynamic type; `nil` for an empty MIME type.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// The type of this tag that conforms to `supertype` (any type when `nil`): a known type
    /// when there is one, else a dynamic type; `nil` for an empty tag or an unknown tag class.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        let normalized = tag.lowercased().trimmingCharacters(in: .whitespaces)
        guard !normalized.isEmpty, tagClass == .mimeType || tagClass == .filenameExtension else { return nil }
        let candidates = Declaration.all.filter { declaration in
            (tagClass == .mimeType ? declaration.mimeTypes : declaration.filenameExtensions).contains(normalized)
        }
        let matching = candidates.map(UTType.init(declaration:)).first { supertype == nil || $0.conforms(to: supertype ?? .data) }
        self = matching ?? UTType(declaration: Declaration.dynamic(tag: normalized, tagClass: tagClass, conformingTo: (supertype ?? .data).identifier))
    }

    /// The extension files of the type usually have, without its dot.
    public var preferredFilenameExtension: String? { declaration.filenameExtensions.first }

    /// The MIME type content of the type usually has.
    public var preferredMIMEType: String? { declaration.mimeTypes.first }

    /// The type's tags, by class.
    public var tags: [UTTagClass: [String]] {
        var tags: [UTTagClass: [String]] = [:]
        if !declaration.filenameExtensions.isEmpty { tags[.filenameExtension] = declaration.filenameExtensions }
        if !declaration.mimeTypes.isEmpty { tags[.mimeType] = declaration.mimeTypes }
        return tags
    }

    /// A short description of the type, in English, when it has one.
    public var localizedDescription: String? { declaration.description }

    /// Every type this one conforms to, its direct supertypes and theirs in turn (not itself).
    public var supertypes: Set<UTType> {
        var found: Set<UTType> = []
        var pending = declaration.parents
        while let identifier = pending.popLast() {
            let type = UTType(identifier) ?? UTType(declaration: .undeclared(identifier))
            guard found.insert(type).inserted else { continue }
            pending += type.declaration.parents
        }
        return found
    }

    /// Whether the type is `type` or conforms to it through its supertypes.
    public func conforms(to type: UTType) -> Bool {
        self == type || supertypes.contains(type)
    }

    /// Whether `type` conforms to this type and is another one.
    public func isSupertype(of type: UTType) -> Bool {
        self != type && type.conforms(to: self)
    }

    /// Whether this type conforms to `type` and is another one.
    public func isSubtype(of type: UTType) -> Bool {
        self != type && conforms(to: type)
    }

    /// Whether the type is a public one, or one the program declared.
    public var isDeclared: Bool { declaration.isDeclared }

    /// Whether the type was made from a tag no declared type has.
    public var isDynamic: Bool { declaration.isDynamic }

    /// Whether the identifier is in the `public` domain reserved for common types.
    public var isPublic: Bool { identifier.hasPrefix("public.") }

    /// The identifier.
    public var description: String { identifier }

    /// The identifier, with the type's MIME types and filename extensions.
    public var debugDescription: String {
        let tags = declaration.mimeTypes + declaration.filenameExtensions.map { "." + $0 }
        return tags.isEmpty ? identifier : "\(identifier) (\(tags.joined(separator: ", ")))"
    }

    /// Whether two types have the same identifier.
    public static func == (left: UTType, right: UTType) -> Bool {
        left.identifier == right.identifier
    }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    /// Decodes a type from its identifier; an identifier of no known type gives an undeclared
    /// type that conforms to nothing but itself.
    public init(from decoder: any Decoder) throws {
        let identifier = try decoder.singleValueContainer().decode(String.self)
        self = UTType(identifier) ?? UTType(declaration: .undeclared(identifier))
    }

    /// Encodes the type as its identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
