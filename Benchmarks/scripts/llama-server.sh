# Sourced by the compare-*.sh scripts: start_llama_server SERVER MODEL PORT LOG starts llama.cpp's
# llama-server on MODEL (2 threads, 4,096 positions, the file's Jinja template) on PORT, stops it
# when the script exits, and waits until it answers.
start_llama_server() {
    "$1" -m "$2" --port "$3" -t 2 -c 4096 --jinja >"$4" 2>&1 &
    llama_server_pid=$!
    trap 'kill $llama_server_pid 2>/dev/null' EXIT
    for _ in $(seq 60); do
        curl -sf "http://127.0.0.1:$3/health" >/dev/null && return 0
        sleep 1
    done
}
