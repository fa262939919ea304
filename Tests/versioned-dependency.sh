#!/usr/bin/env bash
# Builds a small package that depends on the engine products (LlamaInference, ModelFetching,
# ConstrainedDecoding, PartialJSON) by version, from a local git repository tagged 1.0.0 that holds this working tree,
# as a user's package would depend on a release: SwiftPM refuses such a dependency if any of the
# targets it builds carries unsafe flags. The program must run: it names the kernel variant, and
# when the default model is in its cache, runs two tokens through it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The repository: this working tree's files (tracked and not ignored), committed and tagged.
mkdir -p "$work/GuidedGeneration" "$work/Consumer/Sources/Consumer"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/GuidedGeneration")
(
    cd "$work/GuidedGeneration"
    git init -q
    git add -A
    git -c user.name=release -c user.email=release@localhost commit -q -m "release"
    git tag 1.0.0
)
cat > "$work/Consumer/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "file://$work/GuidedGeneration", from: "1.0.0")],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [
                .product(name: "LlamaInference", package: "GuidedGeneration"),
                .product(name: "ModelFetching", package: "GuidedGeneration"),
                .product(name: "ConstrainedDecoding", package: "GuidedGeneration"),
                .product(name: "PartialJSON", package: "GuidedGeneration"),
            ]
        ),
    ]
)
SWIFT
cat > "$work/Consumer/Sources/Consumer/main.swift" <<'SWIFT'
import ConstrainedDecoding
import Foundation
import LlamaInference
import ModelFetching
import PartialJSON

let grammar = try CompiledGrammar(jsonSchema: #"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#)
print("grammar states: \(grammar.stateCount)")
let parser = PartialJSONParser()
try parser.feed(#"{"name": "Ada"#)
print("snapshot: \(parser.snapshot.value.map { "\($0)" } ?? "none")")
print("kernels: \(KernelVariant.preferred) (supported: \(KernelVariant.supported.map(\.rawValue).joined(separator: ", ")))")
if let file = try? GGUFFile(path: ModelStore.defaultModelPath) {
    let session = InferenceSession(model: try LlamaModel(file: file), contextLength: 16)
    try session.evaluate([504, 3575])
    let next = session.logits.indices.max { session.logits[$0] < session.logits[$1] } ?? -1
    print("model: next token \(next)")
}
SWIFT
log="$work/build.log"
if ! swift build --package-path "$work/Consumer" >"$log" 2>&1; then
    cat "$log"
    echo "versioned dependency: the build failed" >&2
    exit 1
fi
"$work/Consumer/.build/debug/Consumer"
echo "versioned dependency: LlamaInference, ModelFetching, ConstrainedDecoding and PartialJSON 1.0.0 built and ran"
