import Foundation
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import Testing

@testable import GuidedGenerationMacros

/// The plugin's side of the compiler's message protocol.
@Suite struct StandardIOConnectionTests {
    /// A frame as the compiler writes it: the length, 8 bytes little-endian, then the payload.
    static func frame(_ payload: String) -> Data {
        var length = UInt64(payload.utf8.count).littleEndian
        return Data(bytes: &length, count: 8) + Data(payload.utf8)
    }

    static func connection(reading frames: Data) throws -> StandardIOConnection {
        let toPlugin = Pipe()
        try toPlugin.fileHandleForWriting.write(contentsOf: frames)
        try toPlugin.fileHandleForWriting.close()
        return StandardIOConnection(input: toPlugin.fileHandleForReading, output: Pipe().fileHandleForWriting)
    }

    /// The compiler ends a plugin's session with an empty message: that is the end, not an
    /// error (an error is printed as "Internal Error" in every build that uses the macros).
    @Test func anEmptyMessageEndsTheSession() throws {
        let connection = try Self.connection(reading: Self.frame(#"{"getCapability":{"capability":{"protocolVersion":7}}}"#) + Self.frame(""))
        let first = try connection.waitForNextMessage(HostToPluginMessage.self)
        guard case .getCapability? = first else {
            Issue.record("expected getCapability, read \(String(describing: first))")
            return
        }
        let second = try connection.waitForNextMessage(HostToPluginMessage.self)
        #expect(second == nil)
    }

    @Test func aCutMessageIsAnError() throws {
        let connection = try Self.connection(reading: Self.frame(#"{"getCapability":{}}"#).dropLast(3))
        #expect(throws: StandardIOConnection.ConnectionError.self) {
            try connection.waitForNextMessage(HostToPluginMessage.self)
        }
    }
}
