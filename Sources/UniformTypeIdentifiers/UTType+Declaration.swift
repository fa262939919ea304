import Foundation
import Synchronization

extension UTType {
    /// What a type is declared with: its identifier, its direct supertypes (by identifier), its
    /// tags (lowercased, the preferred one first) and an English description.
    struct Declaration: Sendable {
        /// Where the declaration comes from.
        enum Origin: Sendable {
            /// The table of common public types.
            case builtIn
            /// The program, through `init(exportedAs:)` or `init(importedAs:)`.
            case declared
            /// A tag no declared type has.
            case dynamic
            /// An identifier read back that names no known type.
            case undeclared
        }

        let identifier: String
        let parents: [String]
        let mimeTypes: [String]
        let filenameExtensions: [String]
        let description: String?
        var origin: Origin = .declared

        var isBuiltIn: Bool { origin == .builtIn }
        var isDeclared: Bool { origin == .builtIn || origin == .declared }
        var isDynamic: Bool { origin == .dynamic }

        /// The types the program declared, by identifier.
        private static let declared = Mutex<[String: Declaration]>([:])

        /// Records a declaration of the program (a public type of the table cannot be redeclared).
        static func declare(_ declaration: Declaration) {
            guard builtIn[declaration.identifier] == nil else { return }
            declared.withLock { $0[declaration.identifier] = declaration }
        }

        /// The declaration of an identifier: of the table, of the program, or read from a dynamic
        /// identifier.
        static func find(_ identifier: String) -> Declaration? {
            if let known = builtIn[identifier] { return known }
            if let known = declared.withLock({ $0[identifier] }) { return known }
            return dynamic(identifier)
        }

        /// Every declared type: those of the table in its order, then the program's.
        static var all: [Declaration] {
            table + declared.withLock { Array($0.values) }.sorted { $0.identifier < $1.identifier }
        }

        /// A type read back that names no known type: it conforms to nothing but itself.
        static func undeclared(_ identifier: String) -> Declaration {
            Declaration(identifier: identifier, parents: [], mimeTypes: [], filenameExtensions: [], description: nil, origin: .undeclared)
        }

        private static let dynamicPrefix = "dyn."

        /// The dynamic type of a tag: its identifier spells the tag class, the tag and the
        /// supertype in hexadecimal, so that it can be read back from the identifier alone.
        static func dynamic(tag: String, tagClass: UTTagClass, conformingTo supertype: String) -> Declaration {
            let spelled = "\(tagClass.rawValue)=\(tag);\(supertype)"
            let identifier = dynamicPrefix + spelled.utf8.map { byte in
                let hex = String(byte, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
            return Declaration(
                identifier: identifier, parents: [supertype], mimeTypes: tagClass == .mimeType ? [tag] : [],
                filenameExtensions: tagClass == .filenameExtension ? [tag] : [], description: nil, origin: .dynamic)
        }

        /// The dynamic type an identifier spells, if it spells one.
        private static func dynamic(_ identifier: String) -> Declaration? {
            guard identifier.hasPrefix(dynamicPrefix) else { return nil }
            let digits = Array(identifier.dropFirst(dynamicPrefix.count).utf8)
            guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(byte)
            }
            guard let spelled = String(validating: bytes, as: UTF8.self), let equals = spelled.firstIndex(of: "="),
                let semicolon = spelled.lastIndex(of: ";"), equals < semicolon
            else { return nil }
            let tagClass = UTTagClass(rawValue: String(spelled[..<equals]))
            let tag = String(spelled[spelled.index(after: equals)..<semicolon])
            let supertype = String(spelled[spelled.index(after: semicolon)...])
            guard tagClass == .mimeType || tagClass == .filenameExtension, !tag.isEmpty, !supertype.isEmpty else { return nil }
            return dynamic(tag: tag, tagClass: tagClass, conformingTo: supertype)
        }
    }
}
