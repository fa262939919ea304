#!/usr/bin/env bash
# Fuzzes the HTTP request parser of `guided serve` with libFuzzer for SECONDS seconds (default
# 600), seeded with Fuzz/HTTPRequestFuzz/seeds, and ends by printing the number of executions
# and of crashes.
# Usage: scripts/fuzz-http-request.sh [SECONDS]
set -euo pipefail
seconds="${1:-600}"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build/fuzz-http"
mkdir -p "$work/corpus" "$work/artifacts"
rm -f "$work"/artifacts/crash-* "$work"/artifacts/leak-* "$work"/artifacts/timeout-* "$work"/artifacts/oom-*

echo "building the fuzz target..." >&2
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name HTTPRequestFuzz \
    "$root"/Sources/GuidedServer/HTTP/*.swift "$root"/Fuzz/HTTPRequestFuzz/*.swift \
    -o "$work/http-request-fuzz"

echo "fuzzing for $seconds seconds..." >&2
set +e
"$work/http-request-fuzz" "$work/corpus" "$root/Fuzz/HTTPRequestFuzz/seeds" \
    -max_total_time="$seconds" -max_len=2048 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 >"$work/fuzz.log" 2>&1
status=$?
set -e
tail -n 25 "$work/fuzz.log" >&2
executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/fuzz.log" | grep -o '[0-9]*$' | tail -n 1)
crashes=$(find "$work/artifacts" -type f | wc -l)
echo "executions: ${executions:-0}"
echo "crashes: $crashes"
[ "$status" -eq 0 ] && [ "$crashes" -eq 0 ]
