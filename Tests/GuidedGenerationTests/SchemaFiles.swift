import Foundation
import GuidedGeneration
import PartialJSON

/// The JSON Schema files in `schemas/`.
enum SchemaFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("schemas")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static func value(_ name: String) throws -> JSONValue {
        try JSONValue(parsing: try text(name))
    }
}
