import Foundation
import LlamaInference
import ModelFetching

extension SystemLanguageModel {
    /// A LoRA adapter for the local model: a GGUF file as llama.cpp's `--lora` reads it
    /// (`general.type` `adapter`, `adapter.type` `lora`, `NAME.lora_a` and `NAME.lora_b` for each
    /// matrix it changes), applied to every product of the model it was made for.
    ///
    /// ```swift
    /// import Foundation
    /// import GuidedGeneration
    ///
    /// do {
    ///     let adapter = try SystemLanguageModel.Adapter(fileURL: URL(fileURLWithPath: "tone.gguf"))
    ///     let session = LanguageModelSession(model: SystemLanguageModel(adapter: adapter))
    ///     print(try await session.respond(to: "Say hello.").content)
    /// } catch let error as SystemLanguageModel.Adapter.AssetError {
    ///     print(error.localizedDescription)
    /// }
    /// ```
    ///
    /// The file is read and checked when the adapter is made; it is checked against the model
    /// (its architecture, each matrix it changes by name and shape) when the model loads, and a
    /// mismatch fails the first request as the model's loading does.
    public struct Adapter: Sendable {
        /// Why an adapter cannot be made.
        public enum AssetError: Swift.Error, LocalizedError, Sendable {
            /// The file is not a LoRA adapter in GGUF, or is damaged.
            case invalidAsset(Context)
            /// The name holds characters an adapter's name cannot.
            case invalidAdapterName(Context)
            /// No adapter of that name is in the adapters folder.
            case compatibleAdapterNotFound(Context)

            /// What went wrong.
            public struct Context: Sendable {
                public let debugDescription: String

                public init(debugDescription: String) {
                    self.debugDescription = debugDescription
                }
            }

            public var errorDescription: String? {
                switch self {
                case .invalidAsset(let context), .invalidAdapterName(let context), .compatibleAdapterNotFound(let context):
                    context.debugDescription
                }
            }
        }

        /// The adapter's file, read and checked.
        let lora: LoRAAdapter
        /// The adapter's metadata, as its GGUF file holds it: text, numbers, booleans and their
        /// arrays, by key (`general.name`, `adapter.lora.alpha`, ...).
        public let creatorDefinedMetadata: [String: any Sendable]

        /// The adapter in the GGUF file at `fileURL`.
        /// - Throws: ``AssetError/invalidAsset(_:)`` naming what is wrong with the file.
        public init(fileURL: URL) throws {
            do {
                lora = try LoRAAdapter(path: fileURL.path)
            } catch {
                throw AssetError.invalidAsset(.init(debugDescription: "\(fileURL.path) is not a LoRA adapter: \(error)"))
            }
            creatorDefinedMetadata = lora.file.metadata.compactMapValues(\.plainValue)
        }

        /// The adapter named `name` in the adapters folder: `NAME.gguf` in `adapters/` of the
        /// model cache (`$GUIDED_CACHE`, else `~/.cache/guided`).
        /// - Throws: ``AssetError`` when the name is not a plain file name, no such file is
        ///   there, or the file is not a LoRA adapter.
        public init(name: String) throws {
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw AssetError.invalidAdapterName(.init(debugDescription: "'\(name)' is not an adapter's name (a file name without '/', not starting with '.')"))
            }
            let url = Self.folder.appendingPathComponent(name + ".gguf")
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw AssetError.compatibleAdapterNotFound(.init(debugDescription: "no adapter '\(name)' at \(url.path)"))
            }
            try self.init(fileURL: url)
        }

        /// Where adapters named by ``init(name:)`` are kept.
        static var folder: URL { URL(fileURLWithPath: ModelStore.cacheDirectory).appendingPathComponent("adapters") }
    }

    /// The default model with `adapter` applied.
    public convenience init(adapter: Adapter, guardrails: Guardrails = Guardrails.default) {
        self.init(
            backend: EmbeddedModel(path: nil, contextSize: 4096, templateName: nil, threadCount: SystemLanguageModel.defaultThreadCount, adapter: adapter.lora),
            guardrails: guardrails)
    }
}

extension GGUFValue {
    /// The value as Swift holds it: a string, a Boolean, an integer, a floating-point number, or
    /// an array of those.
    fileprivate var plainValue: (any Sendable)? {
        switch self {
        case .string(let text): text
        case .bool(let flag): flag
        case .float32, .float64: double
        case .array(let values): values.compactMap(\.plainValue)
        default: integer
        }
    }
}
