#!/usr/bin/env bash
# Runs the grammar mask benchmark (GBNF and Lark grammars, each with sample texts) for
# GuidedGeneration, XGrammar and llguidance on each model's vocabulary, ROUNDS times with the
# engines in turn, and prints the medians side by side with ratios against the faster peer.
#
# usage: Benchmarks/compare-grammar-masks.sh VENV [ROUNDS] [MODEL.gguf ...]
#   VENV: a Python virtual environment (outside the repository) with xgrammar and llguidance,
#         as for compare-masks.sh.
#   ROUNDS: 3 unless given. MODEL.gguf: the models whose vocabularies are used; by default
#         SmolLM2-135M-Instruct Q4_1 and Qwen2.5-Coder-0.5B-Instruct Q4_K_M from $GUIDED_CACHE
#         (~/.cache/guided).
#   The cases come from Benchmarks/scripts/make-grammar-cases.py: llama.cpp's example grammars
#   (LLAMA_CPP_GRAMMARS, else beside llama-server in the cache) and the Lark grammars of
#   Benchmarks/cases/grammars, with the samples of Benchmarks/cases/grammar-samples.jsonl.
set -euo pipefail
venv="$(cd "$1" && pwd)"; shift
rounds=3
if [[ $# -gt 0 && "$1" =~ ^[0-9]+$ ]]; then rounds=$1; shift; fi
cache="${GUIDED_CACHE:-$HOME/.cache/guided}"
models=("$@")
if [[ ${#models[@]} -eq 0 ]]; then
    models=("$cache/SmolLM2-135M-Instruct.Q4_1.gguf" "$cache/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
swift build -c release --product guided-bench --package-path "$root" >&2
bench="$root/.build/release/guided-bench"
flags="$(grep -m1 '^flags' /proc/cpuinfo || true)"
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), family $(lscpu | sed -n 's/^CPU family: *//p') model $(lscpu | sed -n 's/^Model: *//p'),"\
    "$(nproc) cores, avx512f $([[ "$flags" == *avx512f* ]] && echo yes || echo no); $(date -u +%F)"
"$venv/bin/python" -c 'import importlib.metadata as m; print("XGrammar", m.version("xgrammar"), "and llguidance", m.version("llguidance"))'
for model in "${models[@]}"; do
    name="$(basename "$model" .gguf)"
    mkdir -p "$work/$name"
    python3 "$root/Benchmarks/scripts/make-vocabulary.py" "$model" "$work/$name/vocab.json" >&2
    python3 "$root/Benchmarks/scripts/make-grammar-cases.py" "$work/$name/vocab.json" "$work/$name/cases.jsonl" >&2
    engines=(ours xgrammar llguidance)
    for round in $(seq 1 "$rounds"); do
        for engine in "${engines[@]}"; do
            out="$work/$name/$engine.$round.jsonl"
            if [[ $engine == ours ]]; then
                "$bench" masks --vocab "$work/$name/vocab.json" --cases "$work/$name/cases.jsonl" --out "$out" >&2
            else
                (cd "$work" && "$venv/bin/python" "$root/Benchmarks/peers/run_peers.py" "$engine" "$work/$name/vocab.json" \
                    "$work/$name/cases.jsonl" "$out" --reuse-compiled 2>/dev/null)
            fi
        done
        engines=("${engines[@]:1}" "${engines[0]}")  # the next round starts with the next engine
    done
    echo
    echo "## $name"
    echo
    echo "load average at the end of the rounds: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    python3 "$root/Benchmarks/peers/compare_grammars.py" "$work/$name/cases.jsonl" "$work/$name" "${COMPARE_FLAGS:---per-grammar}"
done
echo "results: $work" >&2
