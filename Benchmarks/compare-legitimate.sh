#!/usr/bin/env bash
# Legitimate content, greedy: extraction prompts whose right answers hold underscores, addresses,
# camelCase, angle brackets, long words, CJK, repeated elements and large numbers
# (Benchmarks/cases/legitimate-content.jsonl), answered by this engine (faithful, and with the
# small-model preset) and by llama-server on the same GGUF, both reading the same chat messages
# with the schema enforced. Prints per engine how many answers hold every expected value.
#
# usage: Benchmarks/compare-legitimate.sh LLAMA_SERVER [MODEL.gguf] [OUT_DIR]
#   Needs python3 with openai (the peer's client).
set -euo pipefail
server="$1"
model="${2:-${GUIDED_CACHE:-$HOME/.cache/guided}/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf}"
out="${3:-$(mktemp -d)}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cases=Benchmarks/cases/legitimate-content.jsonl
swift build -c release --product guided-bench >&2
.build/release/guided-bench quality --model "$model" --prompts "$cases" --seeds 0 --max-tokens 256 --out "$out/guided.jsonl" >&2
.build/release/guided-bench quality --model "$model" --prompts "$cases" --seeds 0 --max-tokens 256 --preset small-model \
    --out "$out/guided-preset.jsonl" >&2
port=18474
source Benchmarks/scripts/llama-server.sh
start_llama_server "$server" "$model" "$port" "$out/llama-server.log"
python3 Benchmarks/peers/quality.py peer --server "http://127.0.0.1:$port" --records "$out/guided.jsonl" \
    --out "$out/llama-server.jsonl" --max-tokens 256 2>/dev/null
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(grep -m1 -o -w 'avx512f' /proc/cpuinfo || grep -m1 -o -w 'avx2' /proc/cpuinfo || echo 'no AVX2'); model $(basename "$model"); answers in $out"
python3 Benchmarks/peers/legitimate.py check --cases "$cases" "$out/guided.jsonl" "$out/guided-preset.jsonl" "$out/llama-server.jsonl"
