#!/usr/bin/env bash
# Answer quality of the default model with this engine (faithful, and with the small-model
# preset) and with llama-server on the same GGUF:
# the prompts of Benchmarks/cases/quality-prompts.jsonl over the shapes of schemas/, greedy and
# at default sampling with three seeds; both engines read the same chat messages (the prompt with
# the schema described), llama-server enforcing the schema as response_format json_schema. Prints
# per engine and sampling how many answers pass each check of Benchmarks/peers/quality.py.
#
# usage: Benchmarks/compare-quality.sh LLAMA_SERVER [MODEL.gguf] [OUT_DIR] [SEEDS]
#   LLAMA_SERVER: llama.cpp's llama-server, built outside the repository (see Benchmarks/README.md);
#                 '-' to check this engine's answers only.
#   SEEDS: how many seeded runs beside the greedy one (3; 0 for greedy alone).
#   Needs python3 with jsonschema and openai (the peer's client).
set -euo pipefail
server="$1"
model="${2:-${GUIDED_CACHE:-$HOME/.cache/guided}/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf}"
out="${3:-$(mktemp -d)}"
seeds="${4:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
swift build -c release --product guided-bench >&2
.build/release/guided-bench quality --model "$model" --seeds "$seeds" --max-tokens 1024 --out "$out/guided.jsonl" >&2
.build/release/guided-bench quality --model "$model" --seeds "$seeds" --max-tokens 1024 --preset small-model --out "$out/guided-preset.jsonl" >&2
records=("$out/guided.jsonl" "$out/guided-preset.jsonl")
if [ "$server" != "-" ]; then
    port=18473
    source Benchmarks/scripts/llama-server.sh
    start_llama_server "$server" "$model" "$port" "$out/llama-server.log"
    python3 Benchmarks/peers/quality.py peer --server "http://127.0.0.1:$port" --records "$out/guided.jsonl" \
        --out "$out/llama-server.jsonl" --max-tokens 1024 2>/dev/null
    records+=("$out/llama-server.jsonl")
fi
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(grep -m1 -o -w 'avx512f' /proc/cpuinfo || grep -m1 -o -w 'avx2' /proc/cpuinfo || echo 'no AVX2'); answers in $out"
python3 Benchmarks/peers/quality.py check "${records[@]}"
