// swift-tools-version:6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The folder of the toolchain's own swift-syntax (`usr/lib/swift/host` next to the compiler),
/// which the macro plugin builds against, since no package can be fetched: the value of
/// `GUIDED_SWIFT_HOST_LIBRARIES` when set, else found from the toolchain that runs this manifest
/// (the processes running it, then `swift` on the `PATH`). `nil` when there is none; then only
/// the macro plugin fails to build, with a message that says what to do.
func toolchainHostLibraries() -> String? {
    let fileManager = FileManager.default
    func holdsSwiftSyntax(_ folder: String) -> Bool {
        fileManager.fileExists(atPath: folder + "/SwiftSyntax.swiftmodule")
            && fileManager.fileExists(atPath: folder + "/SwiftCompilerPluginMessageHandling.swiftmodule")
    }
    func hostFolder(ofExecutable path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/host").path
    }
    let environment = ProcessInfo.processInfo.environment
    if let override = environment["GUIDED_SWIFT_HOST_LIBRARIES"] {
        return holdsSwiftSyntax(override) ? override : nil
    }
    var candidates: [String] = []
    // The tools that run this manifest (swift-build, swift-package, ...) live in the toolchain.
    var process = "self"
    for _ in 0..<6 {
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
            let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 2
        else { break }
        process = String(fields[2])
        if let executable = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/\(process)/exe") {
            candidates.append(hostFolder(ofExecutable: executable))
        }
    }
    for folder in (environment["PATH"] ?? "").split(separator: ":") {
        let swift = String(folder) + "/swift"
        if fileManager.isExecutableFile(atPath: swift) { candidates.append(hostFolder(ofExecutable: swift)) }
    }
    return candidates.first(where: holdsSwiftSyntax)
}

let hostLibraries = toolchainHostLibraries()
/// Compiler and linker flags that reach the toolchain's swift-syntax, or a define that makes the
/// macro plugin stop with an explanation when it cannot be found.
let swiftSyntaxSettings: [SwiftSetting] = hostLibraries.map { [.unsafeFlags(["-I", $0])] }
    ?? [.define("GUIDED_MISSING_SWIFT_SYNTAX")]
let swiftSyntaxLinking: [LinkerSetting] = hostLibraries.map {
    [.unsafeFlags(["-L", $0, "-Xlinker", "-rpath", "-Xlinker", $0])]
} ?? []

/// The CPU the model's kernels are compiled for: this machine's vector extensions, as llama.cpp's
/// native build uses them (the default x86-64 target has SSE2 only, and runs the integer dot
/// products at about 60% of the speed), with the scheduling of its maker's cores (AMD's Zen 4
/// runs the same kernels about 25% faster compiled for `znver4` than for `skylake-avx512`).
/// `GUIDED_TARGET_CPU` names another (`none`: the default).
func kernelTargetCPU() -> String? {
    if let name = ProcessInfo.processInfo.environment["GUIDED_TARGET_CPU"] { return name == "none" ? nil : name }
    #if arch(x86_64)
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
    let lines = info.split(separator: "\n")
    func field(_ name: String) -> String? {
        lines.first(where: { $0.hasPrefix(name) })?.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
    guard let flagList = field("flags") else { return nil }
    let flags = Set(flagList.split(separator: " ").map(String.init))
    let isAMD = field("vendor_id") == "AuthenticAMD"
    let family = field("cpu family").flatMap { Int($0) } ?? 0
    if flags.isSuperset(of: ["avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd", "avx2", "fma", "bmi2", "f16c"]) {
        if isAMD && family >= 25 && flags.isSuperset(of: ["avx512_vnni", "avx512_bf16", "avx512vbmi", "avx512_bitalg"]) {
            return "znver4"
        }
        return "skylake-avx512"
    }
    if flags.isSuperset(of: ["avx2", "fma", "bmi2", "f16c", "movbe"]) {
        if isAMD && family >= 23 { return family >= 25 ? "znver3" : "znver1" }
        return "haswell"
    }
    #endif
    return nil
}

/// The CPUs whose names say that AVX2 and FMA are there, so that the kernels written with their
/// intrinsics (`GUIDED_AVX2`) can be compiled in.
let avx2TargetCPUs: Set<String> = [
    "haswell", "broadwell", "skylake", "skylake-avx512", "cascadelake", "cooperlake", "icelake-client",
    "icelake-server", "tigerlake", "alderlake", "raptorlake", "sapphirerapids", "emeraldrapids", "graniterapids",
    "znver1", "znver2", "znver3", "znver4", "znver5", "x86-64-v3", "x86-64-v4",
]

let kernelSettings: [SwiftSetting] = kernelTargetCPU().map { cpu in
    [.unsafeFlags(["-target-cpu", cpu])] + (avx2TargetCPUs.contains(cpu) ? [.define("GUIDED_AVX2")] : [])
} ?? []

let package = Package(
    name: "GuidedGeneration",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PartialJSON", targets: ["PartialJSON"]),
        .library(name: "GuidedGeneration", targets: ["GuidedGeneration"]),
        .library(name: "ConstrainedDecoding", targets: ["ConstrainedDecoding"]),
        .library(name: "LlamaInference", targets: ["LlamaInference"]),
        .executable(name: "guided", targets: ["guided"]),
    ],
    targets: [
        .target(name: "PartialJSON"),
        .target(name: "ConstrainedDecoding"),
        .target(name: "LlamaInference", swiftSettings: kernelSettings),
        .macro(
            name: "GuidedGenerationMacros",
            // Without swift-syntax, only the file that explains what is missing is compiled.
            sources: hostLibraries == nil ? ["ToolchainCheck.swift"] : nil,
            swiftSettings: swiftSyntaxSettings,
            linkerSettings: swiftSyntaxLinking
        ),
        .target(name: "GuidedGeneration", dependencies: ["PartialJSON", "ConstrainedDecoding", "LlamaInference", "GuidedGenerationMacros"]),
        .executableTarget(name: "guided", dependencies: ["PartialJSON", "LlamaInference", "GuidedGeneration"]),
        .executableTarget(
            name: "guided-bench",
            dependencies: ["PartialJSON", "ConstrainedDecoding", "LlamaInference", "GuidedGeneration"],
            path: "Benchmarks/guided-bench"
        ),
        .testTarget(name: "PartialJSONTests", dependencies: ["PartialJSON"]),
        .testTarget(name: "ConstrainedDecodingTests", dependencies: ["ConstrainedDecoding", "PartialJSON"]),
        .testTarget(name: "LlamaInferenceTests", dependencies: ["LlamaInference"]),
        .testTarget(name: "GuidedGenerationTests", dependencies: ["GuidedGeneration", "PartialJSON"]),
        .testTarget(name: "GenerableMacroTests", dependencies: ["GuidedGeneration", "PartialJSON"]),
        .testTarget(name: "SessionTests", dependencies: ["GuidedGeneration"]),
        .testTarget(name: "EndToEndTests", dependencies: ["GuidedGeneration"]),
        .testTarget(
            name: "GuidedGenerationMacrosTests",
            dependencies: ["GuidedGenerationMacros"],
            swiftSettings: swiftSyntaxSettings,
            linkerSettings: swiftSyntaxLinking
        ),
    ],
    swiftLanguageModes: [.v6]
)
