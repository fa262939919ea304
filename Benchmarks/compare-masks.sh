#!/usr/bin/env bash
# Runs the mask benchmark for GuidedGeneration, XGrammar and llguidance on the same cases and
# prints the figures side by side.
#
# usage: Benchmarks/compare-masks.sh VENV VOCAB.json CASES.jsonl [guided-bench options...]
#   VENV: a Python virtual environment (outside the repository) with xgrammar and llguidance,
#         e.g. python3 -m venv ../peers-venv && ../peers-venv/bin/pip install xgrammar llguidance gguf
#   VOCAB.json: from Benchmarks/scripts/make-vocabulary.py; CASES.jsonl: from make-cases.py.
#   Options such as --whitespace flexible or --extra-properties allow go to every engine.
set -euo pipefail
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
venv="$(cd "$1" && pwd)"; vocab="$(absolute "$2")"; cases="$(absolute "$3")"; shift 3
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
swift build -c release --product guided-bench --package-path "$root" >&2
"$root/.build/release/guided-bench" masks --vocab "$vocab" --cases "$cases" --out "$work/ours.jsonl" "$@" >&2
for engine in xgrammar llguidance; do
    (cd "$work" && "$venv/bin/python" "$root/Benchmarks/peers/run_peers.py" "$engine" "$vocab" "$cases" "$work/$engine.jsonl" --reuse-compiled "$@" 2>/dev/null)
done
python3 "$root/Benchmarks/peers/compare.py" "$work/ours.jsonl" "$work/xgrammar.jsonl" "$work/llguidance.jsonl"
