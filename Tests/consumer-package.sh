#!/usr/bin/env bash
# Builds a small package that depends on this one, as a user's would, and uses @Generable and
# @Guide: the build must succeed without any "Internal Error" line from the macro plugin, and the
# program must print the schemas the macros wrote. The same package builds every Swift example
# of the README, ARCHITECTURE.md and docs/, each a program of its own, so that the code the docs
# show compiles against the library as it is.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/Consumer"
# Each ```swift block of the docs becomes the main.swift of a target named after its file and
# its place there.
examples=()
for document in "$root/README.md" "$root/ARCHITECTURE.md" "$root"/docs/*.md; do
    name="$(basename "$document" .md | tr -cd 'A-Za-z0-9')"
    count="$(awk -v folder="$work/Sources" -v name="$name" '
        /^```swift[[:space:]]*$/ { number += 1; target = "Example" name number; system("mkdir -p " folder "/" target); file = folder "/" target "/main.swift"; next }
        /^```/ { file = ""; next }
        file != "" { print > file }
        END { print number + 0 }' "$document")"
    for number in $(seq 1 "$count"); do examples+=("Example$name$number"); done
done
products=""
for product in GuidedGeneration PartialJSON ConstrainedDecoding ChatTemplates LlamaInference ModelFetching; do
    products+=".product(name: \"$product\", package: \"$(basename "$root")\"), "
done
targets=""
for example in "${examples[@]}"; do
    targets+="        .executableTarget(name: \"$example\", dependencies: [$products]),"$'\n'
done
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "GuidedGeneration", package: "$(basename "$root")")]),
$targets    ]
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
if grep -n "warning:" "$log" | grep "$work/Sources"; then
    echo "consumer package: the examples build with warnings" >&2
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
echo "consumer package: built with no internal error, schemas as written; ${#examples[@]} examples of the docs built"
