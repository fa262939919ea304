#!/usr/bin/env bash
# Builds llama.cpp's llama-server, the OpenAI-compatible server the served-model tests run
# against, from the source in PyPI's llama-cpp-python sdist, once, into the cache folder
# ($GUIDED_CACHE, else ~/.cache/guided); prints the binary's path. Keeps llama.cpp's example
# grammars (grammars/*.gbnf) beside it, in "grammars", for the GBNF tests. Needs python3 (with
# venv), a C++ compiler and the package index; cmake comes from PyPI.
#
# usage: scripts/build-llama-server.sh [PROGRAM]   (llama-server; test-gbnf-validator, llama.cpp's
#        grammar checker, for Tests/gbnf-validator.sh; or llama-bench, for the benchmarks; each
#        built the same way into the same folder)
#
# llama-server and test-gbnf-validator share one build: whichever of the two is asked for, the
# other is built with it when it is missing too, so that a first run pays for one build.
set -euo pipefail
program="${1:-llama-server}"
case "$program" in
    llama-server | test-gbnf-validator | llama-bench) ;;
    *) echo "usage: $0 [llama-server | test-gbnf-validator | llama-bench]" >&2; exit 2 ;;
esac
version=0.3.36
cache="${GUIDED_CACHE:-$HOME/.cache/guided}"
target="$cache/llama-server-$version"
# The CPU's own instructions, but not AMX: llama.cpp's AMX products crash (SIGSEGV at the first
# batch) on Xeons whose system does not hand the tile registers to the process.
flags=""
if [ "$(uname -m)" = x86_64 ]; then
    flags="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
fi
built() {
    [ -x "$target/$1" ] && [ "$(cat "$target/build-flags" 2>/dev/null)" = "native $flags" ]
}
if built "$program" && [ -d "$target/grammars" ]; then
    echo "$target/$program"
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "fetching the llama-cpp-python $version sdist" >&2
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet cmake scikit-build-core >&2
"$work/venv/bin/pip" download --quiet --no-deps --no-binary :all: --no-build-isolation "llama-cpp-python==$version" -d "$work" >&2
tar -xzf "$work/llama_cpp_python-$version.tar.gz" -C "$work"
source="$work/llama_cpp_python-$version/vendor/llama.cpp"
mkdir -p "$target/grammars"
cp "$source"/grammars/*.gbnf "$target/grammars/"
if built "$program"; then
    echo "$target/$program"
    exit 0
fi
programs="$program"
tests=OFF
case "$program" in
    llama-server | test-gbnf-validator)
        tests=ON
        for partner in llama-server test-gbnf-validator; do
            if [ "$partner" != "$program" ] && ! built "$partner"; then programs="$programs $partner"; fi
        done
        ;;
esac
echo "building $programs $version from it (about 10 minutes on 2 cores)" >&2
"$work/venv/bin/cmake" -S "$source" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON -DLLAMA_CURL=OFF \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DLLAMA_BUILD_TESTS="$tests" -DLLAMA_BUILD_EXAMPLES=OFF -DBUILD_SHARED_LIBS=OFF >&2
# shellcheck disable=SC2086 # one target per word
"$work/venv/bin/cmake" --build "$work/build" --target $programs -j "$(nproc)" >&2
mkdir -p "$target"
# Programs built with other flags than these are stale.
if [ "$(cat "$target/build-flags" 2>/dev/null)" != "native $flags" ]; then
    rm -f "$target"/llama-server "$target"/llama-bench "$target"/test-gbnf-validator
fi
for built_program in $programs; do
    # Copied beside, then renamed: a llama-server that is running keeps its file.
    cp "$work/build/bin/$built_program" "$target/.$built_program.new"
    mv -f "$target/.$built_program.new" "$target/$built_program"
done
echo "native $flags" > "$target/build-flags"
echo "$target/$program"
