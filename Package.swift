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

/// The form of Apple's `UniformTypeIdentifiers` module (its `UTType`) for platforms that lack it,
/// so that code naming content types builds here as written; where Apple's framework exists, it
/// is the one used.
#if canImport(Darwin)
let typeIdentifierTargets: [Target] = []
let typeIdentifierModules: [String] = []
#else
let typeIdentifierTargets: [Target] = [.target(name: "UniformTypeIdentifiers")]
let typeIdentifierModules: [String] = ["UniformTypeIdentifiers"]
#endif

let package = Package(
    name: "GuidedGeneration",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PartialJSON", targets: ["PartialJSON"]),
        .library(name: "GuidedGeneration", targets: ["GuidedGeneration"] + typeIdentifierModules),
        .library(name: "ConstrainedDecoding", targets: ["ConstrainedDecoding"]),
        .library(name: "ChatTemplates", targets: ["ChatTemplates"]),
        .library(name: "LlamaInference", targets: ["LlamaInference"]),
        .library(name: "ModelFetching", targets: ["ModelFetching"]),
        .executable(name: "guided", targets: ["guided"]),
    ],
    targets: typeIdentifierTargets + [
        .target(name: "PartialJSON"),
        .target(name: "ConstrainedDecoding", dependencies: ["PartialJSON"]),
        // The model's kernels, one variant per CPU feature set, picked at run time.
        .target(name: "GuidedKernels"),
        .target(name: "ChatTemplates", dependencies: ["PartialJSON"]),
        .target(name: "LlamaInference", dependencies: ["GuidedKernels", "ChatTemplates"]),
        .target(name: "ModelFetching"),
        // HTTP/1.1 on POSIX sockets, shared by the server and the client for served models.
        .target(name: "HTTPWire"),
        .macro(
            name: "GuidedGenerationMacros",
            // Without swift-syntax, only the file that explains what is missing is compiled.
            sources: hostLibraries == nil ? ["ToolchainCheck.swift"] : nil,
            swiftSettings: swiftSyntaxSettings,
            linkerSettings: swiftSyntaxLinking
        ),
        .target(
            name: "GuidedGeneration",
            dependencies: [
                "PartialJSON", "ConstrainedDecoding", "ChatTemplates", "LlamaInference", "ModelFetching", "HTTPWire", "GuidedGenerationMacros",
            ] + typeIdentifierModules.map { .target(name: $0) }),
        .target(name: "GuidedServer", dependencies: ["GuidedGeneration", "HTTPWire", "PartialJSON"]),
        .executableTarget(
            name: "guided", dependencies: ["PartialJSON", "LlamaInference", "ModelFetching", "GuidedGeneration", "GuidedServer"]),
        .executableTarget(
            name: "guided-bench",
            dependencies: ["PartialJSON", "ConstrainedDecoding", "LlamaInference", "ModelFetching", "GuidedGeneration"],
            path: "Benchmarks/guided-bench"
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "PartialJSONTests", dependencies: ["PartialJSON", "TestSupport"]),
        .testTarget(name: "ConstrainedDecodingTests", dependencies: ["ConstrainedDecoding", "PartialJSON", "TestSupport"]),
        .testTarget(name: "ChatTemplatesTests", dependencies: ["ChatTemplates", "PartialJSON"]),
        .testTarget(name: "LlamaInferenceTests", dependencies: ["LlamaInference", "ChatTemplates", "ModelFetching", "GuidedKernels", "TestSupport"]),
        .testTarget(name: "GuidedGenerationTests", dependencies: ["GuidedGeneration", "ConstrainedDecoding", "PartialJSON"]),
        .testTarget(name: "GenerableMacroTests", dependencies: ["GuidedGeneration", "PartialJSON", "LlamaInference", "ModelFetching", "TestSupport"]),
        .testTarget(name: "SessionTests", dependencies: ["GuidedGeneration", "ConstrainedDecoding", "TestSupport"]),
        .testTarget(name: "HTTPWireTests", dependencies: ["HTTPWire"]),
        .testTarget(name: "GuidedServerTests", dependencies: ["GuidedServer", "GuidedGeneration", "HTTPWire", "PartialJSON"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["GuidedGeneration", "GuidedServer", "PartialJSON", "ChatTemplates", "LlamaInference", "ModelFetching", "TestSupport"]),
        .testTarget(
            name: "GuidedGenerationMacrosTests",
            dependencies: ["GuidedGenerationMacros"],
            swiftSettings: swiftSyntaxSettings,
            linkerSettings: swiftSyntaxLinking
        ),
    ],
    swiftLanguageModes: [.v6]
)
