#!/usr/bin/env bash
# Acceptance by Apple's own code: builds a checkout of Apple's foundation-models-utilities
# (public on GitHub as apple/foundation-models-utilities) against this package and runs its unit
# tests. The one change made to Apple's sources is `import FoundationModels` becoming
# `import GuidedGeneration` (with the same access modifier); the manifest is written here, with
# Apple's targets, language mode and features, depending on this working tree. Nothing of
# Apple's is kept: the copy lives in a temporary directory.
#
#   Tests/apple-utilities.sh PATH [swift test arguments...]
#
# PATH is the checkout. The live integration tests (which need a served model) are not run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
checkout="${1:-}"
if [ -z "$checkout" ] || [ ! -d "$checkout/Sources/FoundationModelsUtilities" ] || [ ! -d "$checkout/Tests/FoundationModelsUtilitiesTests" ]; then
    echo "apple-utilities.sh: no checkout of apple/foundation-models-utilities given (expected PATH/Sources/FoundationModelsUtilities and PATH/Tests/FoundationModelsUtilitiesTests; got '${checkout}')." >&2
    echo "usage: Tests/apple-utilities.sh PATH [swift test arguments...]" >&2
    exit 2
fi
shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Tests"
cp -R "$checkout/Sources" "$work/Sources"
cp -R "$checkout/Tests/FoundationModelsUtilitiesTests" "$work/Tests/FoundationModelsUtilitiesTests"
# The only change to Apple's sources.
changed=$(grep -rlE '^[[:space:]]*((public|package|internal|@testable)[[:space:]]+)?import[[:space:]]+FoundationModels[[:space:]]*$' "$work" --include='*.swift' || true)
if [ -z "$changed" ]; then
    echo "apple-utilities.sh: no file of the checkout imports FoundationModels" >&2
    exit 2
fi
for file in $changed; do
    sed -i -E 's/^([[:space:]]*((public|package|internal|@testable)[[:space:]]+)?import[[:space:]]+)FoundationModels[[:space:]]*$/\1GuidedGeneration/' "$file"
done
echo "apple-utilities.sh: $(echo "$changed" | wc -l) files import GuidedGeneration instead of FoundationModels"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let settings: [SwiftSetting] = [
    .enableExperimentalFeature("InternalImportsByDefault"),
    .enableExperimentalFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "foundation-models-utilities",
    dependencies: [.package(name: "GuidedGeneration", path: "$root")],
    targets: [
        .target(
            name: "FoundationModelsUtilities",
            dependencies: [.product(name: "GuidedGeneration", package: "GuidedGeneration")],
            swiftSettings: settings),
        .testTarget(
            name: "FoundationModelsUtilitiesTests",
            dependencies: ["FoundationModelsUtilities", .product(name: "GuidedGeneration", package: "GuidedGeneration")],
            swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT
swift build --package-path "$work" --build-tests
swift test --package-path "$work" --skip-build "$@"
