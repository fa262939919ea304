"""The CPU a client of a served model spends per streamed token: `guided respond` and
`guided generate` on llama.cpp's llama-server (`--endpoint`), against curl and Python's
http.client sending the same chat request, all in the same run on the same server.

Each client is a process of its own; its user and system CPU seconds come from the kernel
(`os.wait4`), the number of tokens the server generated for it from the server's log. Every
client answers the same prompt twice: at most TOKENS tokens, and at most 1 token, so that the
figures per token leave out what the process spends once (start, connection, schema); the last
column is the system CPU per second of streaming, which shows a client that wakes up on timers
rather than on bytes. Runs are interleaved and the median of RUNS is printed.

usage: python3 Benchmarks/served-client-cpu.py LLAMA_SERVER MODEL NAME=GUIDED [NAME=GUIDED ...] [--tokens N] [--runs R]
  LLAMA_SERVER is llama.cpp's server (`scripts/build-llama-server.sh`), MODEL a GGUF file,
  each NAME=GUIDED a `guided` binary (release build) to measure under that name.
  TOKENS defaults to 400, RUNS to 3. Run from the repository root (the structured answer uses
  schemas/recipe.json). Only the Python standard library.
"""
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

PROMPT_TEXT = "Write a long story about a lighthouse keeper and a storm."
PROMPT_RECIPE = "Give me a detailed recipe for a vegetable lasagna, with many steps."
EVAL = re.compile(rb"\|\s+eval time =\s+[\d.]+ ms /\s+(\d+) tokens")

PYTHON_CLIENT = r"""
import http.client, sys
host, port, body = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "rb").read()
connection = http.client.HTTPConnection(host, port)
connection.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
response = connection.getresponse()
while response.read1(65536):
    pass
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request_body(tokens, structured):
    body = {"model": "m", "stream": True, "temperature": 0, "max_tokens": tokens}
    if structured:
        with open("schemas/recipe.json") as file:
            schema = json.load(file)
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "Recipe", "strict": True, "schema": schema}}
        body["messages"] = [{"role": "user", "content": PROMPT_RECIPE}]
    else:
        body["messages"] = [{"role": "user", "content": PROMPT_TEXT}]
    return body


class Server:
    def __init__(self, binary, model):
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="llama-server-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            [binary, "-m", model, "--port", str(self.port), "-t", "1", "-c", "4096", "--jinja"], stdout=self.log, stderr=self.log)
        for _ in range(600):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        sys.exit("llama-server did not start; see " + self.log.name)

    def log_size(self):
        return os.path.getsize(self.log.name)

    def tokens_since(self, offset):
        """The tokens of the first request the server finished after `offset` in its log."""
        for _ in range(100):
            with open(self.log.name, "rb") as file:
                file.seek(offset)
                found = EVAL.search(file.read())
            if found:
                return int(found.group(1))
            time.sleep(0.05)
        return 0

    def stop(self):
        self.process.terminate()
        self.process.wait()


def measure(command, server):
    """User and system CPU seconds, wall seconds and tokens of one client process."""
    offset = server.log_size()
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    return usage.ru_utime, usage.ru_stime, wall, server.tokens_since(offset)


def commands(port, guided, tokens, structured, body_file):
    url = f"http://127.0.0.1:{port}"
    result = {
        "curl": ["curl", "-sN", url + "/v1/chat/completions", "-H", "Content-Type: application/json", "--data-binary", "@" + body_file],
        "python http.client": [sys.executable, "-c", PYTHON_CLIENT, "127.0.0.1", str(port), body_file],
    }
    for name, binary in guided:
        if structured:
            result[name] = [binary, "generate", "--endpoint", url + "/v1", "--model", "m", "--greedy", "--max-tokens", str(tokens), "--schema", "schemas/recipe.json", PROMPT_RECIPE]
        else:
            result[name] = [binary, "respond", "--endpoint", url + "/v1", "--model", "m", "--greedy", "--max-tokens", str(tokens), PROMPT_TEXT]
    return result


def main():
    arguments = sys.argv[1:]
    tokens, runs = 400, 3
    if "--tokens" in arguments:
        index = arguments.index("--tokens")
        tokens = int(arguments[index + 1])
        del arguments[index:index + 2]
    if "--runs" in arguments:
        index = arguments.index("--runs")
        runs = int(arguments[index + 1])
        del arguments[index:index + 2]
    if len(arguments) < 3 or any("=" not in item for item in arguments[2:]):
        sys.exit(__doc__)
    binary, model = arguments[0], arguments[1]
    guided = [tuple(item.split("=", 1)) for item in arguments[2:]]
    server = Server(binary, model)
    print(f"CPU: {cpu_name()}; llama-server -t 1, {os.cpu_count()} cores; median of {runs} runs")
    try:
        for structured in (False, True):
            print()
            print("structured (schemas/recipe.json)" if structured else "text")
            print(f"{'client':<22}{'tokens':>7}{'user ms':>9}{'sys ms':>8}{'user µs/tok':>13}{'sys µs/tok':>12}{'sys ms/s':>10}")
            samples = {}
            for limit in (tokens, 1):
                with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
                    json.dump(request_body(limit, structured), file)
                    body_file = file.name
                clients = commands(server.port, guided, limit, structured, body_file)
                for _ in range(runs):
                    for name, command in clients.items():
                        samples.setdefault((name, limit), []).append(measure(command, server))
                os.unlink(body_file)
            for name in clients:
                long, short = samples[(name, tokens)], samples[(name, 1)]
                user, system, wall, count = (statistics.median(item[i] for item in long) for i in range(4))
                user1, system1, wall1, count1 = (statistics.median(item[i] for item in short) for i in range(4))
                extra = max(1, count - count1)
                print(f"{name:<22}{count:>7.0f}{user * 1e3:>9.1f}{system * 1e3:>8.1f}"
                      f"{(user - user1) / extra * 1e6:>13.1f}{(system - system1) / extra * 1e6:>12.1f}"
                      f"{(system - system1) / max(1e-3, wall - wall1) * 1e3:>10.2f}")
    finally:
        server.stop()


def cpu_name():
    try:
        with open("/proc/cpuinfo") as file:
            fields = dict((key.strip(), value) for key, value in (line.split(":", 1) for line in file if ":" in line))
        return f"{fields['model name'].strip()} (family {fields['cpu family'].strip()} model {fields['model'].strip()})"
    except (OSError, KeyError):
        return "unknown"


if __name__ == "__main__":
    main()
