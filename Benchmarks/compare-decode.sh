#!/usr/bin/env bash
# Runs the decode benchmark and llama.cpp's llama-bench on the same GGUF file, alternating
# between the two so that both see the same load, and prints prefill and decode tokens/s side by
# side with ratios.
#
# usage: Benchmarks/compare-decode.sh LLAMA_BENCH [MODEL.gguf] [ROUNDS]
#   LLAMA_BENCH: llama.cpp's llama-bench, built outside the repository (see Benchmarks/README.md).
#   MODEL.gguf: the default model when absent. ROUNDS: alternations per thread count (2).
set -euo pipefail
llama_bench="$1"
model="${2:-${GUIDED_CACHE:-$HOME/.cache/guided}/SmolLM2-135M-Instruct.Q4_1.gguf}"
rounds="${3:-2}"
root="$(cd "$(dirname "$0")/.." && pwd)"
ratios="$(mktemp)"
trap 'rm -f "$ratios"' EXIT
swift build -c release --product guided-bench --package-path "$root" >&2
printf '| threads | round | prefill ours | prefill llama.cpp | ratio | decode ours | decode llama.cpp | ratio |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- |\n'
for threads in 1 2; do
    for round in $(seq "$rounds"); do
        ours="$("$root/.build/release/guided-bench" decode --model "$model" --threads "$threads" --prompt-tokens 128 --generate 128)"
        theirs="$("$llama_bench" -m "$model" -t "$threads" -p 128 -n 128 -r 3 -o json 2>/dev/null)"
        python3 - "$threads" "$round" "$ours" "$theirs" "$ratios" <<'PY'
import json, re, sys
threads, round_, ours, theirs = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
prefill = float(re.search(r"prefill:\s*([\d.]+)", ours).group(1))
decode = float(re.search(r"decode:\s*([\d.]+)", ours).group(1))
peer = {("prefill" if run["n_prompt"] else "decode"): run["avg_ts"] for run in theirs}
print(f"| {threads} | {round_} | {prefill:.1f} | {peer['prefill']:.1f} | {prefill / peer['prefill']:.2f}x "
      f"| {decode:.1f} | {peer['decode']:.1f} | {decode / peer['decode']:.2f}x |")
with open(sys.argv[5], "a") as ratios:
    ratios.write(f"{threads} {prefill / peer['prefill']} {decode / peer['decode']}\n")
PY
    done
done
# The median ratio per thread count: the machine's speed drifts from round to round, for both.
python3 - "$ratios" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for threads in sorted({row[0] for row in rows}, key=int):
    mine = [row for row in rows if row[0] == threads]
    prefill = statistics.median(float(row[1]) for row in mine)
    decode = statistics.median(float(row[2]) for row in mine)
    print(f"| {threads} | median of {len(mine)} | | | {prefill:.2f}x | | | {decode:.2f}x |")
PY
