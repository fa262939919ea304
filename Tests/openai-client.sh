#!/usr/bin/env bash
# Runs Tests/openai_client_check.py, the `openai` Python package as a client, against
# `guided serve` on the default model: starts the server on a free port with an API key,
# installs `openai` (and `lark`, whose parser checks the Lark answers) once into a virtual
# environment in the cache folder ($GUIDED_CACHE, else ~/.cache/guided), and fails when a check
# fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${GUIDED_CACHE:-$HOME/.cache/guided}"
venv="$cache/openai-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import openai, pydantic, lark" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "openai>=1.40" pydantic lark >&2
fi
cd "$root"
swift build -c release --product guided >&2
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
key="test-key-$RANDOM"
.build/release/guided serve --port "$port" --api-key "$key" >"$cache/openai-client-serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 120); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
    sleep 0.5
done
"$venv/bin/python" Tests/openai_client_check.py "http://127.0.0.1:$port/v1" "$key"
echo "openai client against guided serve: all checks passed"
