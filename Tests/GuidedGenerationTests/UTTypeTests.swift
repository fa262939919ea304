import Foundation
import GuidedGeneration
import Testing

/// The form of `UTType` for platforms without UniformTypeIdentifiers: the public types by
/// identifier, MIME type and extension, conformance, the program's own declarations, dynamic
/// types, and encoding as the identifier.
@Suite struct UTTypeTests {
    @Test func publicTypesAreFoundByIdentifierMIMETypeAndExtension() throws {
        #expect(UTType("public.png") == .png)
        #expect(UTType(mimeType: "image/png") == .png)
        #expect(UTType(mimeType: "IMAGE/JPEG") == .jpeg)
        #expect(UTType(filenameExtension: "jpg") == .jpeg)
        #expect(UTType(filenameExtension: "json") == .json)
        #expect(UTType(mimeType: "text/plain") == .plainText)
        #expect(UTType.png.preferredMIMEType == "image/png")
        #expect(UTType.jpeg.preferredFilenameExtension == "jpeg")
        #expect(UTType.json.tags[.mimeType] == ["application/json"])
        #expect(UTType.png.isDeclared && UTType.png.isPublic && !UTType.png.isDynamic)
        #expect(UTType("public.no-such-type") == nil)
        #expect(UTType(mimeType: "") == nil)
    }

    @Test func typesConformThroughTheirSupertypes() {
        #expect(UTType.png.conforms(to: .image))
        #expect(UTType.png.conforms(to: .data))
        #expect(UTType.png.conforms(to: .item))
        #expect(UTType.png.conforms(to: .png))
        #expect(!UTType.png.conforms(to: .text))
        #expect(UTType.json.conforms(to: .text))
        #expect(UTType.utf8PlainText.isSubtype(of: .plainText))
        #expect(UTType.image.isSupertype(of: .heic))
        #expect(!UTType.image.isSubtype(of: .image))
        #expect(UTType.swiftSource.supertypes.isSuperset(of: [.sourceCode, .plainText, .text, .data, .item, .content]))
    }

    @Test func aTagOfAnotherKindGivesADynamicTypeThatReadsBack() throws {
        let type = try #require(UTType(mimeType: "application/x-recipe", conformingTo: .json))
        #expect(type.isDynamic && !type.isDeclared)
        #expect(type.identifier.hasPrefix("dyn."))
        #expect(type.preferredMIMEType == "application/x-recipe")
        #expect(type.conforms(to: .json) && type.conforms(to: .text))
        let again = try #require(UTType(type.identifier))
        #expect(again == type && again.preferredMIMEType == "application/x-recipe" && again.conforms(to: .json))
        // A known tag whose type does not conform to the supertype asked for is a dynamic type too.
        let text = try #require(UTType(filenameExtension: "txt", conformingTo: .image))
        #expect(text.isDynamic && text.conforms(to: .image) && !text.conforms(to: .plainText))
    }

    @Test func aDeclaredTypeIsFoundAgainAndKeepsItsSupertype() throws {
        let identifier = "com.example.floorplan-\(UUID().uuidString.prefix(8).lowercased())"
        #expect(UTType(identifier) == nil)
        let declared = UTType(exportedAs: identifier, conformingTo: .json)
        #expect(declared.identifier == identifier && declared.isDeclared)
        #expect(declared.conforms(to: .json) && declared.conforms(to: .text))
        let found = try #require(UTType(identifier))
        #expect(found.conforms(to: .json))
        let imported = UTType(importedAs: identifier + ".other")
        #expect(imported.conforms(to: .data) && !imported.conforms(to: .text))
    }

    @Test func aTypeEncodesAsItsIdentifier() throws {
        let encoded = try JSONEncoder().encode([UTType.png, .json])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["public.png","public.json"]"#)
        let decoded = try JSONDecoder().decode([UTType].self, from: encoded)
        #expect(decoded == [.png, .json])
        #expect(decoded[0].conforms(to: .image))
        // An identifier of no known type reads back as itself, conforming to nothing else.
        let unknown = try JSONDecoder().decode(UTType.self, from: Data(#""org.example.unknown""#.utf8))
        #expect(unknown.identifier == "org.example.unknown" && !unknown.isDeclared && !unknown.conforms(to: .data))
    }
}
