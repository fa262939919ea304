#!/usr/bin/env bash
# Runs GuidedGeneration, XGrammar and llguidance on every instance, valid and invalid, of the
# JSONSchemaBench schemas and prints per subset how many schemas each engine compiles, how many
# valid instances it accepts and how many invalid ones it lets through, with its timings.
#
# usage: Benchmarks/compare-coverage.sh VENV VOCAB.json [guided-bench options...]
#   VENV: a Python virtual environment (outside the repository) with xgrammar and llguidance,
#         e.g. python3 -m venv ../peers-venv && ../peers-venv/bin/pip install xgrammar llguidance gguf
#   VOCAB.json: from Benchmarks/scripts/make-vocabulary.py.
#   Options such as --whitespace flexible --extra-properties allow (JSON Schema's own semantics)
#   go to every engine.
# The peers run with --reuse-compiled (XGrammar compiles each schema once for its instances) and
# a limit of 30 s per compile (run_peers.py --timeout).
# The corpora folder is $GUIDED_CORPORA, by default ../shared/corpora beside the repository; the
# cases come from its JSONSchemaBench-dev/*.jsonl. The cases and each engine's records stay in
# the temporary folder printed at the start.
set -euo pipefail
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
venv="$(cd "$1" && pwd)"; vocab="$(absolute "$2")"; shift 2
root="$(cd "$(dirname "$0")/.." && pwd)"
corpora="${GUIDED_CORPORA:-$root/../shared/corpora}"
work="$(mktemp -d)"
echo "cases and records: $work" >&2
"$venv/bin/python" "$root/Benchmarks/scripts/make-cases.py" "$vocab" "$work/cases.jsonl" --bench "$corpora/JSONSchemaBench-dev" >&2
swift build -c release --product guided-bench --package-path "$root" >&2
"$root/.build/release/guided-bench" masks --vocab "$vocab" --cases "$work/cases.jsonl" --out "$work/ours.jsonl" "$@" >&2
for engine in xgrammar llguidance; do
    (cd "$work" && "$venv/bin/python" "$root/Benchmarks/peers/run_peers.py" "$engine" "$vocab" "$work/cases.jsonl" "$work/$engine.jsonl" --reuse-compiled "$@" 2>"$work/$engine.log")
done
python3 "$root/Benchmarks/peers/coverage.py" "$work/ours.jsonl" "$work/xgrammar.jsonl" "$work/llguidance.jsonl" "$work/cases.jsonl"
