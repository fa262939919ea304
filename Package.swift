// swift-tools-version:6.0
import PackageDescription

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
        .target(name: "GuidedGeneration", dependencies: ["PartialJSON"]),
        .executableTarget(name: "guided", dependencies: ["PartialJSON"]),
        .executableTarget(
            name: "guided-bench",
            dependencies: ["PartialJSON"],
            path: "Benchmarks/guided-bench"
        ),
        .testTarget(name: "PartialJSONTests", dependencies: ["PartialJSON"]),
        .testTarget(name: "GuidedGenerationTests", dependencies: ["GuidedGeneration", "PartialJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
