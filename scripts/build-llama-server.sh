#!/usr/bin/env bash
# Builds llama.cpp's llama-server, the OpenAI-compatible server the served-model tests run
# against, from the source in PyPI's llama-cpp-python sdist, once, into the cache folder
# ($GUIDED_CACHE, else ~/.cache/guided); prints the binary's path. Keeps llama.cpp's example
# grammars (grammars/*.gbnf) beside it, in "grammars", for the GBNF tests. Needs python3 (with
# venv), a C++ compiler and the package index; cmake comes from PyPI.
#
# usage: scripts/build-llama-server.sh [PROGRAM]   (llama-server; or llama-bench, for the
#        benchmarks, built the same way into the same folder)
set -euo pipefail
program="${1:-llama-server}"
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
    [ -x "$target/$program" ] && [ "$(cat "$target/build-flags" 2>/dev/null)" = "native $flags" ]
}
if built && [ -d "$target/grammars" ]; then
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
if built; then
    echo "$target/$program"
    exit 0
fi
echo "building $program $version from it (about 10 minutes on 2 cores)" >&2
"$work/venv/bin/cmake" -S "$source" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON -DLLAMA_CURL=OFF \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DBUILD_SHARED_LIBS=OFF >&2
"$work/venv/bin/cmake" --build "$work/build" --target "$program" -j "$(nproc)" >&2
mkdir -p "$target"
# Programs built with other flags than these are stale.
[ "$(cat "$target/build-flags" 2>/dev/null)" = "native $flags" ] || rm -f "$target"/llama-*
cp "$work/build/bin/$program" "$target/$program"
echo "native $flags" > "$target/build-flags"
echo "$target/$program"
