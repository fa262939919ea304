#!/usr/bin/env bash
# Decode and prefill at realistic sizes: for each shape and weight type, writes a GGUF file of that
# shape with random weights (Benchmarks/scripts/make-random-model.py), runs guided-bench decode and
# llama.cpp's llama-bench on it alternately at 1 thread and at all of them, and prints tokens/s,
# ratios (ours / llama.cpp) and the memory bandwidth each decode reaches, as a share of what the
# machine's read bandwidth (Benchmarks/scripts/read-bandwidth.c, same thread count) is.
#
# usage: Benchmarks/compare-sizes.sh LLAMA_BENCH [SHAPE:TYPE ...]
#   LLAMA_BENCH: llama.cpp's llama-bench (scripts/build-llama-server.sh llama-bench builds it).
#   SHAPE:TYPE: llama-1b:q4_k_m (and llama-3b, llama-8b, qwen2-1.5b, qwen2-3b, qwen2-7b; q8_0);
#   all twelve when none is given. ROUNDS (environment, 1): alternations per thread count.
set -euo pipefail
llama_bench="$1"
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
    for shape in llama-1b llama-3b llama-8b qwen2-1.5b qwen2-3b qwen2-7b; do cases+=("$shape:q4_k_m" "$shape:q8_0"); done
fi
rounds="${ROUNDS:-1}"
# SmolLM2's vocabulary (49,152 tokens) is smaller than every shape's, which pads it.
vocabulary="$(swift run -c release --package-path "$root" guided fetch-model smollm2-135m-instruct 2>/dev/null | tail -1)"
swift build -c release --product guided-bench --package-path "$root" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -march=native -pthread "$root/Benchmarks/scripts/read-bandwidth.c" -o "$work/read-bandwidth"
all="$(nproc)"
declare -A bandwidth
for threads in 1 "$all"; do bandwidth[$threads]="$("$work/read-bandwidth" "$threads")"; done
echo "read bandwidth: ${bandwidth[1]} GB/s on 1 thread, ${bandwidth[$all]} GB/s on $all" >&2
printf '| shape | type | GB | threads | prefill ours | prefill llama.cpp | ratio | decode ours | decode llama.cpp | ratio | decode GB/s ours (of read bandwidth) | llama.cpp |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for case in "${cases[@]}"; do
    shape="${case%%:*}"
    type="${case##*:}"
    model="$work/$shape-$type.gguf"
    made="$(python3 "$root/Benchmarks/scripts/make-random-model.py" "$shape" "$type" "$vocabulary" "$model")"
    read_bytes="$(echo "$made" | awk '/bytes read per decoded token/ {print $NF}')"
    size="$(stat -c %s "$model")"
    for threads in 1 "$all"; do
        for round in $(seq "$rounds"); do
            ours="$("$root/.build/release/guided-bench" decode --model "$model" --threads "$threads" --prompt-tokens 128 --generate 64 --runs 1)"
            theirs="$("$llama_bench" -m "$model" -t "$threads" -p 128 -n 64 -r 1 -o json 2>/dev/null)"
            python3 - "$shape" "$type" "$size" "$threads" "$ours" "$theirs" "$read_bytes" "${bandwidth[$threads]}" <<'PY'
import json, re, sys
shape, type_, size, threads, ours, theirs, read_bytes, peak = sys.argv[1:]
prefill = float(re.search(r"prefill:\s*([\d.]+)", ours).group(1))
decode = float(re.search(r"decode:\s*([\d.]+)", ours).group(1))
peer = {("prefill" if run["n_prompt"] else "decode"): run["avg_ts"] for run in json.loads(theirs)}
read, peak = int(read_bytes) / 1e9, float(peak)
print(f"| {shape} | {type_} | {int(size) / 1e9:.2f} | {threads} | {prefill:.1f} | {peer['prefill']:.1f} | {prefill / peer['prefill']:.2f}x "
      f"| {decode:.2f} | {peer['decode']:.2f} | {decode / peer['decode']:.2f}x "
      f"| {decode * read:.1f} ({decode * read / peak:.0%}) | {peer['decode'] * read:.1f} ({peer['decode'] * read / peak:.0%}) |", flush=True)
PY
        done
    done
    rm -f "$model"
done
