// swift-tools-version:6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

/// The folder of the toolchain's own swift-syntax (`usr/lib/swift/host` next to the compiler),
/// which the macro plugin builds against, since no package can be fetched: the value of
/// `GUIDED_SWIFT_HOST_LIBRARIES` when set, else found from the toolchain that runs this manifest
/// (the processes running it, then `swift` on the `PATH`).
func toolchainHostLibraries() -> String {
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
        guard holdsSwiftSyntax(override) else {
            fatalError("GUIDED_SWIFT_HOST_LIBRARIES=\(override) holds no SwiftSyntax.swiftmodule and SwiftCompilerPluginMessageHandling.swiftmodule")
        }
        return override
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
    guard let found = candidates.first(where: holdsSwiftSyntax) else {
        fatalError(
            """
            Cannot find the toolchain's swift-syntax (usr/lib/swift/host with SwiftSyntax.swiftmodule), \
            which the @Generable macro is built against. Looked in: \(candidates.joined(separator: ", ")). \
            Set GUIDED_SWIFT_HOST_LIBRARIES to that folder of a Swift 6 toolchain.
            """)
    }
    return found
}

let hostLibraries = toolchainHostLibraries()

let package = Package(
    name: "GuidedGeneration",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PartialJSON", targets: ["PartialJSON"]),
        .library(name: "GuidedGeneration", targets: ["GuidedGeneration"]),
        .executable(name: "guided", targets: ["guided"]),
    ],
    targets: [
        .target(name: "PartialJSON"),
        .macro(
            name: "GuidedGenerationMacros",
            swiftSettings: [.unsafeFlags(["-I", hostLibraries])],
            linkerSettings: [.unsafeFlags(["-L", hostLibraries, "-Xlinker", "-rpath", "-Xlinker", hostLibraries])]
        ),
        .target(name: "GuidedGeneration", dependencies: ["PartialJSON", "GuidedGenerationMacros"]),
        .executableTarget(name: "guided", dependencies: ["PartialJSON"]),
        .executableTarget(
            name: "guided-bench",
            dependencies: ["PartialJSON"],
            path: "Benchmarks/guided-bench"
        ),
        .testTarget(name: "PartialJSONTests", dependencies: ["PartialJSON"]),
        .testTarget(name: "GuidedGenerationTests", dependencies: ["GuidedGeneration", "PartialJSON"]),
        .testTarget(name: "GenerableMacroTests", dependencies: ["GuidedGeneration", "PartialJSON"]),
        .testTarget(
            name: "GuidedGenerationMacrosTests",
            dependencies: ["GuidedGenerationMacros"],
            swiftSettings: [.unsafeFlags(["-I", hostLibraries])],
            linkerSettings: [.unsafeFlags(["-L", hostLibraries, "-Xlinker", "-rpath", "-Xlinker", hostLibraries])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
