"""`guided serve` against llama.cpp's llama-server under concurrent clients, on the same GGUF
file: for each number of clients, each server runs with as many parallel slots (`--parallel N`
and `-np N`, 2 threads), the same load of `serve-load.py` is sent to it (a mix of whole and
streamed answers, two thirds under a JSON schema, streams dropped after the first chunk; at most
48 tokens, seeded), and a table prints requests/s, generated tokens/s, the latency p50/p99 of the
answers completed and of their first streamed content, and the resident memory of each server
before the load, at its peak and after it, with the ratios of this engine's figures to
llama-server's from the same run.

usage: python3 Benchmarks/compare-serve.py [--stories] GUIDED LLAMA_SERVER MODEL [CLIENTS,...] [REQUESTS_PER_CLIENT]
  GUIDED is the `guided` binary (a release build), LLAMA_SERVER llama.cpp's server
  (`scripts/build-llama-server.sh`); CLIENTS defaults to 1,4,16,32, REQUESTS_PER_CLIENT to 4.
  --stories: every request asks for a long story in free text instead, so that every answer runs
  to the 48-token limit on both servers and tokens/s compares answers of equal length.
Only the Python standard library.
"""
import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.request

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("serve_load", os.path.join(here, "serve-load.py"))
serve_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(serve_load)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(command, port):
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
                if response.status == 200:
                    return server
        except OSError:
            pass
        if server.poll() is not None:
            break
        time.sleep(0.1)
    server.kill()
    sys.exit(f"{command[0]} did not start: {' '.join(command)}")


def measure(command, port, clients, total):
    server = start(command, port)
    try:
        results, elapsed, before, peak, after = serve_load.load(port, server.pid, clients, total)
    finally:
        server.terminate()
        server.wait()
    lost = sorted(results) != list(range(total))
    failed = [r for r in results.values() if "error" in r or "failure" in r or r.get("status") != 200]
    invalid = [r for r in serve_load.invalid_answers(results) if r not in failed]
    answered = [r for r in results.values() if r.get("status") == 200 and r["kind"] != "drop" and r not in failed]
    latencies = [r["seconds"] for r in answered]
    firsts = [r["first"] for r in answered if "first" in r]
    tokens = sum(r.get("tokens") or 0 for r in answered)
    for record in ([{"lost": True}] if lost else []) + failed + invalid:
        print(f"{command[0]}, {clients} clients: {record}", file=sys.stderr)
    return {
        "requests/s": total / elapsed, "tokens/s": tokens / elapsed,
        "p50": serve_load.percentile(latencies, 0.5), "p99": serve_load.percentile(latencies, 0.99),
        "first p50": serve_load.percentile(firsts, 0.5), "first p99": serve_load.percentile(firsts, 0.99),
        "memory": (before / 1024, peak / 1024, after / 1024),
        "problems": (1 if lost else 0) + len(failed) + len(invalid),
    }


def main():
    arguments = sys.argv[1:]
    if arguments and arguments[0] == "--stories":
        serve_load.STORIES = True
        arguments = arguments[1:]
    if len(arguments) < 3:
        sys.exit(__doc__)
    guided, llama_server, model = arguments[:3]
    counts = [int(n) for n in (arguments[3] if len(arguments) > 3 else "1,4,16,32").split(",")]
    per_client = int(arguments[4]) if len(arguments) > 4 else 4
    rows = []
    for clients in counts:
        total = max(8, clients * per_client)
        port = free_port()
        ours = measure([guided, "serve", "--model", model, "--port", str(port), "--parallel", str(clients),
                        "--max-waiting", str(clients)], port, clients, total)
        port = free_port()
        # Each slot gets 1,024 positions, as the load's conversations need far fewer.
        peer = measure([llama_server, "-m", model, "--port", str(port), "-t", "2", "-np", str(clients),
                        "-c", str(1024 * clients), "--jinja"], port, clients, total)
        rows.append((clients, total, ours, peer))
        print(f"{clients} clients done", file=sys.stderr)
    print("| clients | requests | engine | requests/s | tokens/s | latency p50 / p99 s | first content p50 / p99 s "
          "| memory before / peak / after MiB | failed or invalid |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for clients, total, ours, peer in rows:
        for name, figures in (("GuidedGeneration", ours), ("llama-server", peer)):
            before, peak, after = figures["memory"]
            print(f"| {clients} | {total} | {name} | {figures['requests/s']:.2f} | {figures['tokens/s']:.1f} "
                  f"| {figures['p50']:.2f} / {figures['p99']:.2f} | {figures['first p50']:.2f} / {figures['first p99']:.2f} "
                  f"| {before:.0f} / {peak:.0f} / {after:.0f} | {figures['problems']} |")
    print()
    print("| clients | requests/s ratio | tokens/s ratio | latency p50 ratio | latency p99 ratio |")
    print("| --- | --- | --- | --- | --- |")
    for clients, _, ours, peer in rows:
        print(f"| {clients} | {ours['requests/s'] / peer['requests/s']:.2f}x | {ours['tokens/s'] / peer['tokens/s']:.2f}x "
              f"| {peer['p50'] / ours['p50']:.2f}x | {peer['p99'] / ours['p99']:.2f}x |")
    print("(ratios above 1 favour GuidedGeneration: more per second, or less latency)")


if __name__ == "__main__":
    main()
