import Foundation

/// The JSONTestSuite parsing cases kept in `Tests/Corpora`.
enum Corpus {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Corpora/JSONTestSuite/test_parsing")

    /// Every case: file name and bytes, sorted by name.
    static let cases: [(name: String, bytes: [UInt8])] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else { return nil }
            return (name, Array(data))
        }
    }()

    static func cases(prefix: String) -> [(name: String, bytes: [UInt8])] {
        cases.filter { $0.name.hasPrefix(prefix) }
    }
}
