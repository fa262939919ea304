#!/usr/bin/env bash
# Fuzzes one parser with libFuzzer (and AddressSanitizer) for SECONDS seconds (default 600) and
# ends by printing the number of executions and of crashes; fails on any crash.
#   partial-json   the PartialJSON parser, seeded with the JSONTestSuite cases
#   http-request   the HTTP request parser of `guided serve`, seeded with Fuzz/HTTPRequestFuzz/seeds
#   http-response  the HTTP response parser of the client for served models (HTTPWire), seeded
#                  with Fuzz/HTTPResponseFuzz/seeds
# Usage: scripts/fuzz.sh partial-json|http-request|http-response [SECONDS]
set -euo pipefail
target="${1:?usage: scripts/fuzz.sh partial-json|http-request|http-response [SECONDS]}"
seconds="${2:-600}"
root="$(cd "$(dirname "$0")/.." && pwd)"
case "$target" in
    partial-json)
        module=PartialJSONFuzz sources=("$root"/Sources/PartialJSON/*.swift)
        seeds="$root/Tests/Corpora/JSONTestSuite/test_parsing" maxlen=8192 wire=no ;;
    http-request)
        module=HTTPRequestFuzz sources=("$root"/Sources/GuidedServer/HTTP/*.swift)
        seeds="$root/Fuzz/HTTPRequestFuzz/seeds" maxlen=2048 wire=yes ;;
    http-response)
        module=HTTPResponseFuzz sources=()
        seeds="$root/Fuzz/HTTPResponseFuzz/seeds" maxlen=2048 wire=yes ;;
    *) echo "unknown target '$target': partial-json, http-request or http-response" >&2; exit 2 ;;
esac
work="$root/.build/fuzz/$target"
mkdir -p "$work/corpus" "$work/artifacts"
rm -f "$work"/artifacts/crash-* "$work"/artifacts/leak-* "$work"/artifacts/timeout-* "$work"/artifacts/oom-*

echo "building the fuzz target..." >&2
flags=(-O -g -sanitize=fuzzer,address -package-name GuidedGeneration)
wired=()
if [ "$wire" = yes ]; then
    # The HTTP parsers read heads with HTTPWire: that module is built first, as a library.
    swiftc "${flags[@]}" -parse-as-library -module-name HTTPWire -emit-module -emit-module-path "$work/HTTPWire.swiftmodule" \
        -emit-library -static "$root"/Sources/HTTPWire/*.swift -o "$work/libHTTPWire.a"
    wired=(-I "$work" "$work/libHTTPWire.a")
fi
swiftc "${flags[@]}" -parse-as-library -module-name "$module" \
    ${sources[@]+"${sources[@]}"} "$root/Fuzz/$module"/*.swift "$root"/Fuzz/Shared/*.swift ${wired[@]+"${wired[@]}"} -o "$work/fuzz"

echo "fuzzing for $seconds seconds..." >&2
set +e
"$work/fuzz" "$work/corpus" "$seeds" \
    -max_total_time="$seconds" -max_len="$maxlen" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 >"$work/fuzz.log" 2>&1
status=$?
set -e
tail -n 25 "$work/fuzz.log" >&2
executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/fuzz.log" | grep -o '[0-9]*$' | tail -n 1)
crashes=$(find "$work/artifacts" -type f | wc -l)
echo "executions: ${executions:-0}"
echo "crashes: $crashes"
[ "$status" -eq 0 ] && [ "$crashes" -eq 0 ]
