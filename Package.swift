// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "GuidedGeneration",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PartialJSON", targets: ["PartialJSON"]),
        .executable(name: "guided", targets: ["guided"]),
    ],
    targets: [
        .target(name: "PartialJSON"),
        .executableTarget(name: "guided", dependencies: ["PartialJSON"]),
        .executableTarget(
            name: "guided-bench",
            dependencies: ["PartialJSON"],
            path: "Benchmarks/guided-bench"
        ),
        .testTarget(name: "PartialJSONTests", dependencies: ["PartialJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
