import Foundation
import LlamaInference
import ModelFetching
import Testing

/// SmolLM2-135M-Instruct, the tiny model for the tests that only need a model to run, fetched by
/// `.ci/run` (or `swift run guided fetch-model smollm2-135m-instruct`) before the tests run.
enum TestModel {
    static let path = ModelStore.path(of: .smolLM2)

    static let file: GGUFFile? = try? GGUFFile(path: path)

    static func require() throws -> GGUFFile {
        try #require(file, "SmolLM2-135M-Instruct is missing at \(path): run `swift run guided fetch-model smollm2-135m-instruct` first")
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
}
