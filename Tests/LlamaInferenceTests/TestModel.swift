import Foundation
import LlamaInference
import ModelFetching
import Testing

/// The default model for the tests that need it, fetched by `.ci/run` (or
/// `swift run guided fetch-model`) before the tests run.
enum TestModel {
    static let path = ModelStore.defaultModelPath

    static let file: GGUFFile? = try? GGUFFile(path: path)

    static func require() throws -> GGUFFile {
        try #require(file, "the default model is missing at \(path): run `swift run guided fetch-model` first")
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
}
