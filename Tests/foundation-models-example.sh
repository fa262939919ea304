#!/usr/bin/env bash
# Acceptance by published code: builds the two Swift packages of a checkout of
# rudrankriyam/Foundation-Models-Framework-Example (public on GitHub), `Packages/FoundationModelsKit`
# and `FoundationLabCore`, with their tests, against this package, and runs those tests. The
# sources are changed on their import lines only: `import FoundationModels` becomes
# `import GuidedGeneration` (with the same attributes), and a file that uses URLSession gains
# `import FoundationNetworking`, where Linux keeps it. The manifest is written here, with the
# example's targets, depending on this working tree. Nothing of the example is kept: the copy
# lives in a temporary directory.
#
#   Tests/foundation-models-example.sh PATH [--as-written] [swift test arguments...]
#
# PATH is the checkout (measured at commit 0e139a161ebc157d62673b0cf8bf2ff690f2064f).
#
# The example writes its FoundationModels 27 code under `#if compiler(>=6.4)` (the Swift of
# Xcode 27). This toolchain is older, so those lines would compile the code written for
# FoundationModels 26 only; the script opens them (`compiler(>=6.4)` becomes `compiler(>=6.0)`)
# so that the 27 code is built and tested too. `--as-written` leaves them as they are.
#
# Left out, and listed below with the reason: the files that import a framework of Apple's
# platforms only, and the files and tests that are built on what those files declare. None of
# the tests needs a language model.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
checkout="${1:-}"
if [ -z "$checkout" ] || [ ! -f "$checkout/Packages/FoundationModelsKit/Package.swift" ] || [ ! -f "$checkout/FoundationLabCore/Package.swift" ]; then
    echo "foundation-models-example.sh: no checkout of rudrankriyam/Foundation-Models-Framework-Example given (expected PATH/Packages/FoundationModelsKit/Package.swift and PATH/FoundationLabCore/Package.swift; got '${checkout}')." >&2
    echo "usage: Tests/foundation-models-example.sh PATH [--as-written] [swift test arguments...]" >&2
    exit 2
fi
shift
open_gates=1
if [ "${1:-}" = "--as-written" ]; then
    open_gates=0
    shift
fi

# Files that import a framework of Apple's platforms only, each with that framework (paths as
# in the copy: Sources/ and Tests/ of both packages together).
apple_only=(
    "Sources/FoundationModelsTools/Tools/CalendarTool.swift EventKit"
    "Sources/FoundationModelsTools/Tools/RemindersTool.swift EventKit"
    "Sources/FoundationModelsTools/Tools/ContactsTool.swift Contacts"
    "Sources/FoundationModelsTools/Tools/HealthTool.swift HealthKit"
    "Sources/FoundationModelsTools/Tools/LocationTool.swift CoreLocation"
    "Sources/FoundationModelsTools/Tools/WeatherTool.swift CoreLocation"
    "Sources/FoundationModelsTools/Tools/MusicTool.swift MusicKit"
    "Sources/FoundationModelsTools/Tools/WebMetadataTool.swift LinkPresentation"
    "Sources/FoundationModelsTools/Tools/WebTool.swift SwiftUI"
    "Sources/FoundationLabCore/Providers/FoundationModelsMusicCatalogSearcher.swift MusicKit"
)
# Files built on what the files above declare, each with what it uses.
built_on_them=(
    "Sources/FoundationLabCore/Providers/FoundationModelsCalendarQuerier.swift CalendarTool"
    "Sources/FoundationLabCore/Providers/FoundationModelsReminderManager.swift RemindersTool"
    "Sources/FoundationLabCore/Providers/FoundationModelsContactsSearcher.swift ContactsTool"
    "Sources/FoundationLabCore/Providers/FoundationModelsHealthDataQuerier.swift HealthTool"
    "Sources/FoundationLabCore/Providers/FoundationModelsLocationResponder.swift LocationTool"
    "Sources/FoundationLabCore/Providers/FoundationModelsWeatherResponder.swift WeatherTool"
    "Sources/FoundationLabCore/Providers/FoundationModelsWebPageSummarizer.swift WebMetadataTool"
    "Sources/FoundationLabCore/Capabilities/QueryCalendarUseCase.swift FoundationModelsCalendarQuerier"
    "Sources/FoundationLabCore/Capabilities/ManageRemindersUseCase.swift FoundationModelsReminderManager"
    "Sources/FoundationLabCore/Capabilities/SearchContactsUseCase.swift FoundationModelsContactsSearcher"
    "Sources/FoundationLabCore/Capabilities/QueryHealthDataUseCase.swift FoundationModelsHealthDataQuerier"
    "Sources/FoundationLabCore/Capabilities/GetCurrentLocationUseCase.swift FoundationModelsLocationResponder"
    "Sources/FoundationLabCore/Capabilities/GetWeatherUseCase.swift FoundationModelsWeatherResponder"
    "Sources/FoundationLabCore/Capabilities/GenerateWebPageSummaryUseCase.swift FoundationModelsWebPageSummarizer"
    "Sources/FoundationLabCore/Capabilities/SearchMusicCatalogUseCase.swift FoundationModelsMusicCatalogSearcher"
    "Tests/FoundationModelsToolsTests/ToolErrorTests.swift CalendarError"
    "Tests/FoundationLabCoreTests/SharedToolCapabilityUseCaseTests.swift QueryCalendarUseCase"
    "Tests/FoundationLabCoreTests/GetWeatherUseCaseTests.swift GetWeatherUseCase"
)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources" "$work/Tests"
cp -R "$checkout/Packages/FoundationModelsKit/Sources/." "$work/Sources/"
cp -R "$checkout/Packages/FoundationModelsKit/Tests/." "$work/Tests/"
cp -R "$checkout/FoundationLabCore/Sources/FoundationLabCore" "$work/Sources/FoundationLabCore"
cp -R "$checkout/FoundationLabCore/Tests/FoundationLabCoreTests" "$work/Tests/FoundationLabCoreTests"

# Each listed file must still be there and still import (or use) what it is listed for; a
# checkout where that changed needs the lists looked at again.
require() { # FILE PATTERN WHAT
    if ! grep -qE "$2" "$work/$1" 2>/dev/null; then
        echo "foundation-models-example.sh: $1 does not $3 in this checkout; update the list." >&2
        exit 2
    fi
}
for item in "${apple_only[@]}"; do
    require "${item% *}" "^[[:space:]]*(@preconcurrency[[:space:]]+)?import[[:space:]]+${item##* }[[:space:]]*$" "import ${item##* }"
done
for item in "${built_on_them[@]}"; do
    require "${item% *}" "\\b${item##* }\\b" "use ${item##* }"
done
# No other file may import a framework of Apple's platforms only.
# (UniformTypeIdentifiers is not among them: this package has a module of that name for Linux.)
apple_frameworks='SwiftUI|UIKit|AppKit|EventKit|Contacts|CoreLocation|MapKit|HealthKit|MusicKit|LinkPresentation|Vision|CoreSpotlight|CoreImage|CoreGraphics|ImageIO|PhotosUI|Photos|AVFoundation|Speech|WeatherKit|CoreML|Combine'
listed=$(printf '%s\n' "${apple_only[@]}" | cut -d' ' -f1 | sort)
importing=$(cd "$work" && grep -rlE "^[[:space:]]*(@preconcurrency[[:space:]]+)?import[[:space:]]+(${apple_frameworks})[[:space:]]*$" Sources Tests --include='*.swift' | sort || true)
unlisted=$(comm -13 <(echo "$listed") <(echo "$importing") | sed '/^$/d')
if [ -n "$unlisted" ]; then
    echo "foundation-models-example.sh: these files import a framework of Apple's platforms only and are not listed:" >&2
    echo "$unlisted" >&2
    exit 2
fi

leave_out() { # REASON ITEM...
    echo "foundation-models-example.sh: left out, as $1:"
    shift
    for item in "$@"; do
        echo "  ${item% *} (${item##* })"
        rm "$work/${item% *}"
    done
}
leave_out "they import a framework of Apple's platforms only" "${apple_only[@]}"
leave_out "they are built on what those files declare (what each uses)" "${built_on_them[@]}"

# The changes to the example's sources: import lines, and (without --as-written) the compiler
# gates of its FoundationModels 27 code.
import_line='^([[:space:]]*((public|package|internal|@testable|@preconcurrency)[[:space:]]+)?import[[:space:]]+)FoundationModels[[:space:]]*$'
changed=$(grep -rlE "$import_line" "$work" --include='*.swift' || true)
if [ -z "$changed" ]; then
    echo "foundation-models-example.sh: no file of the checkout imports FoundationModels" >&2
    exit 2
fi
for file in $changed; do
    sed -i -E "s/${import_line}/\\1GuidedGeneration/" "$file"
done
echo "foundation-models-example.sh: $(echo "$changed" | wc -l) files import GuidedGeneration instead of FoundationModels"
networking=$(grep -rlE '\b(URLSession|URLRequest|HTTPURLResponse)\b' "$work" --include='*.swift' || true)
for file in $networking; do
    sed -i -E '0,/^([[:space:]]*((public|package|internal|@preconcurrency)[[:space:]]+)?import[[:space:]]+Foundation)[[:space:]]*$/s//\1\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif/' "$file"
done
echo "foundation-models-example.sh: $(echo "$networking" | sed '/^$/d' | wc -l) files that use URLSession import FoundationNetworking too"
if [ "$open_gates" = 1 ]; then
    gated=$(grep -rlE '^[[:space:]]*#if compiler\(>=6\.4\)' "$work" --include='*.swift' || true)
    for file in $gated; do
        sed -i -E 's/^([[:space:]]*#if compiler\()>=6\.4\)/\1>=6.0)/' "$file"
    done
    echo "foundation-models-example.sh: $(echo "$gated" | sed '/^$/d' | wc -l) files have their FoundationModels 27 code (#if compiler(>=6.4)) built"
fi

cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.2
import PackageDescription

// The targets of the example's two manifests; each depends on GuidedGeneration, as it did on
// the FoundationModels framework of Apple's SDK.
let guided: Target.Dependency = .product(name: "GuidedGeneration", package: "GuidedGeneration")

let package = Package(
    name: "Foundation-Models-Framework-Example",
    dependencies: [.package(name: "GuidedGeneration", path: "$root")],
    targets: [
        .target(name: "FoundationModelsKit", dependencies: [guided]),
        .target(name: "FoundationModelsTools", dependencies: ["FoundationModelsKit", guided]),
        .testTarget(name: "FoundationModelsKitTests", dependencies: ["FoundationModelsKit", guided]),
        .testTarget(name: "FoundationModelsToolsTests", dependencies: ["FoundationModelsTools", guided]),
        .target(name: "FoundationLabCore", dependencies: ["FoundationModelsKit", "FoundationModelsTools", guided]),
        .testTarget(name: "FoundationLabCoreTests", dependencies: ["FoundationLabCore", guided]),
    ]
)
SWIFT
swift build --package-path "$work" --build-tests
swift test --package-path "$work" --skip-build "$@"
