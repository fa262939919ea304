#!/usr/bin/env bash
# Checks the engine's GBNF against llama.cpp's own grammar checker, test-gbnf-validator (built,
# or found in the cache folder, by scripts/build-llama-server.sh, with llama.cpp's example
# grammars beside it):
# 1. the checker still gives every text of Tests/Fixtures/gbnf-validator.jsonl the verdict the
#    fixture records (the engine's side of that fixture is LlamaCppValidatorAgreementTests);
# 2. for each of the eight grammars and each of two models (SmolLM2-135M-Instruct,
#    Qwen2.5-Coder-0.5B-Instruct; `guided fetch-model NAME` fetches them), `guided generate
#    --grammar` answers a prompt of the grammar's kind, greedy, and the checker must accept the
#    text. A text cut at the token limit is not complete: the checker must then have read all
#    of it (a valid beginning), and the table says so.
# Prints a table (grammar, model, tokens, how the text ended: at its end or at the limit, and the
# checker's verdict: yes, "beginning" for a valid beginning, no) and fails on any refusal or error.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
started=$SECONDS
checker="$(scripts/build-llama-server.sh test-gbnf-validator)"
grammars="$(dirname "$checker")/grammars"
python3 Tests/scripts/gbnf-validator-fixture.py check "$checker"
swift build -c release -Xswiftc -enable-testing --product guided >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# grammar|token limit|prompt[|instructions]. The chat models end an answer without a line break,
# and these grammars end every line with one: greedy, once that line break is written, the
# models go on with more lines, though either end-of-turn token is allowed there. llama-server
# 0.3.36 under the same grammars, greedy, on the same Qwen file, also runs arithmetic, chess and
# list to the limit (finish_reason "length"; Benchmarks/README.md, "Answers under llama.cpp's
# grammars"). Under arithmetic and chess both models, under list Qwen and under japanese SmolLM2
# (which loops in Japanese) reach the token limit, so their limits are small.
cases=(
    "arithmetic|48|Write an arithmetic equation."
    "c|256|Write a C function that returns the larger of two integers."
    "chess|64|Write the first four moves of a chess game in algebraic notation."
    "english|96|Describe the weather today in one sentence."
    "japanese|64|日本の首都について一文で書いてください。"
    "json|128|Describe a person as a JSON object with a name and an age."
    "json_arr|128|List three fruits as a JSON array of strings."
    "list|48|List three fruits.|Answer with a Markdown list and nothing after it."
)
models=(smollm2-135m-instruct qwen2.5-coder-0.5b)

failures=0
rows=()
for entry in "${cases[@]}"; do
    IFS='|' read -r grammar limit prompt instructions <<<"$entry"
    for model in "${models[@]}"; do
        status=0
        .build/release/guided generate --grammar "$grammars/$grammar.gbnf" --model "$model" --greedy --max-tokens "$limit" \
            ${instructions:+--instructions "$instructions"} --stream --stats "$prompt" >"$work/streamed" 2>"$work/log" || status=$?
        if [ "$status" = 0 ]; then
            # The text, without the line break that ends the streamed output.
            head -c -1 "$work/streamed" >"$work/text"
            tokens="$(sed -n 's/.*; response \([0-9]*\) tokens.*/\1/p' "$work/log")"
            ended=end
            allowed=" valid "
        elif grep -q "not complete after the maximum of" "$work/log"; then
            cp "$work/streamed" "$work/text"
            tokens="$limit"
            ended="limit"
            allowed=" valid prefix "
        else
            echo "guided generate failed for $grammar on $model (exit $status):" >&2
            cat "$work/log" >&2
            rows+=("$(printf '%-10s  %-21s  %6s  %-6s  %s' "$grammar" "$model" - error error)")
            failures=$((failures + 1))
            continue
        fi
        verdict="$(python3 Tests/scripts/gbnf-validator-fixture.py verdict "$checker" "$grammars/$grammar.gbnf" "$work/text")"
        case "$verdict" in
            valid) accepted=yes ;;
            prefix) accepted="beginning" ;;
            *) accepted=no ;;
        esac
        if [[ "$allowed" != *" $verdict "* ]]; then
            failures=$((failures + 1))
            echo "$grammar on $model: the checker finds the text $verdict:" >&2
            cat "$work/text" >&2
            echo >&2
        fi
        rows+=("$(printf '%-10s  %-21s  %6s  %-6s  %s' "$grammar" "$model" "$tokens" "$ended" "$accepted")")
        {
            echo "--- $grammar, $model ($tokens tokens, $ended):"
            cat "$work/text"
            echo
        } >>"$work/texts"
    done
done

cat "$work/texts"
printf '%-10s  %-21s  %6s  %-6s  %s\n' grammar model tokens ended accepted
printf '%s\n' "${rows[@]}"
echo "took $((SECONDS - started)) s"
if [ "$failures" -gt 0 ]; then
    echo "$failures of ${#rows[@]} texts were refused by llama.cpp's checker or could not be generated" >&2
    exit 1
fi
echo "llama.cpp's checker accepts every text the engine wrote under its grammars"
