#!/usr/bin/env bash
# Builds a small package that depends on this one, as a user's would, and uses @Generable and
# @Guide: the build must succeed without any "Internal Error" line from the macro plugin, and the
# program must print the schemas the macros wrote.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/Consumer"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "GuidedGeneration", package: "$(basename "$root")")]),
    ]
)
SWIFT
cat > "$work/Sources/Consumer/main.swift" <<'SWIFT'
import GuidedGeneration

@Generable
struct Recipe {
    @Guide(description: "The name of the dish")
    var title: String
    @Guide(.count(3...5))
    var steps: [String]
    var servings: Int
}

@Generable
enum Mood {
    case happy, sad
}

print(Recipe.generationSchema)
print(Mood.generationSchema)
SWIFT
log="$work/build.log"
if ! swift build --package-path "$work" >"$log" 2>&1; then
    cat "$log"
    echo "consumer package: the build failed" >&2
    exit 1
fi
if grep -n "Internal Error" "$log"; then
    echo "consumer package: the macro plugin reported an internal error" >&2
    exit 1
fi
output="$("$work/.build/debug/Consumer")"
echo "$output"
grep -q '"steps":{"type":"array","items":{"type":"string"},"minItems":3,"maxItems":5}' <<<"$output"
grep -q '"enum":\["happy","sad"\]' <<<"$output"
echo "consumer package: built with no internal error, schemas as written"
