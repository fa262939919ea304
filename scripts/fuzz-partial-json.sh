#!/usr/bin/env bash
# Fuzzes the PartialJSON parser with libFuzzer for SECONDS seconds (default 600), seeded with the
# JSONTestSuite cases, and ends by printing the number of executions and of crashes.
# Usage: scripts/fuzz-partial-json.sh [SECONDS]
set -euo pipefail
seconds="${1:-600}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build/fuzz"
mkdir -p "$work/corpus" "$work/artifacts"
rm -f "$work"/artifacts/crash-* "$work"/artifacts/leak-* "$work"/artifacts/timeout-* "$work"/artifacts/oom-*

echo "building the fuzz target..." >&2
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name PartialJSONFuzz \
    "$root"/Sources/PartialJSON/*.swift "$root"/Fuzz/PartialJSONFuzz/*.swift \
    -o "$work/partial-json-fuzz"

echo "fuzzing for $seconds seconds..." >&2
set +e
"$work/partial-json-fuzz" "$work/corpus" "$root/Tests/Corpora/JSONTestSuite/test_parsing" \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 >"$work/fuzz.log" 2>&1
status=$?
set -e
tail -n 25 "$work/fuzz.log" >&2
executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/fuzz.log" | grep -o '[0-9]*$' | tail -n 1)
crashes=$(find "$work/artifacts" -type f | wc -l)
echo "executions: ${executions:-0}"
echo "crashes: $crashes"
[ "$status" -eq 0 ] && [ "$crashes" -eq 0 ]
