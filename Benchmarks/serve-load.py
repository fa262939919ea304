"""A bounded load test of `guided serve` on loopback: CLIENTS threads send REQUESTS chat
completions in all (a mix of whole and streamed answers, structured and text, and streams the
client drops after the first chunk), and check that no request is lost or answered twice, that
every answer completed is valid, and that the server's memory comes back to its level before
the load. Prints requests/s, latency p50/p99, time to the first streamed content p50/p99, the
statuses, and the server's resident memory before, at the peak, and after.

usage: python3 Benchmarks/serve-load.py PORT SERVER_PID [CLIENTS] [REQUESTS]
Only the Python standard library; the server runs with --max-waiting at least CLIENTS.
"""
import http.client
import json
import statistics
import sys
import threading
import time

SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0, "maximum": 20}},
          "required": ["name", "age"], "additionalProperties": False}
PROMPTS = ["A cat called Tom.", "A shy old cat.", "A kitten that loves boxes.", "A cat who sleeps all day."]


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# With stories, every request asks for a long story in free text, which runs past the token limit
# on any server: answers of equal length, so that tokens/s compares like with like.
STORIES = False


def body(index, stream):
    content = f"Write a long story about the number {index}." if STORIES else PROMPTS[index % len(PROMPTS)]
    request = {"model": "m", "stream": stream, "seed": index, "max_tokens": 48,
               "messages": [{"role": "user", "content": content}]}
    if stream:
        request["stream_options"] = {"include_usage": True}
    if index % 3 != 2 and not STORIES:
        request["response_format"] = {"type": "json_schema", "json_schema": {"name": "cat", "schema": SCHEMA}}
    return request


def run(port, index, results):
    kind = ["whole", "stream", "drop"][index % 3] if index % 5 else "stream"
    request = body(index, kind != "whole")
    started = time.perf_counter()
    record = {"index": index, "kind": kind, "structured": "response_format" in request}
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        connection.request("POST", "/v1/chat/completions", json.dumps(request), {"Content-Type": "application/json"})
        response = connection.getresponse()
        record["status"] = response.status
        if response.status != 200 or kind == "whole":
            payload = response.read()
            if response.status == 200:
                answer = json.loads(payload)
                record["content"] = answer["choices"][0]["message"]["content"]
                record["tokens"] = answer.get("usage", {}).get("completion_tokens")
        else:
            text = ""
            for line in response:
                line = line.decode().strip()
                if not line.startswith("data: ") or line == "data: [DONE]":
                    continue
                chunk = json.loads(line[6:])
                if "error" in chunk:
                    # An error after the stream started (such as an answer cut by max_tokens).
                    record["failure"] = chunk["error"].get("message", "error")
                    break
                if chunk.get("usage"):
                    record["tokens"] = chunk["usage"].get("completion_tokens")
                choices = chunk["choices"]
                delta = choices[0]["delta"].get("content") if choices else None
                if delta:
                    record.setdefault("first", time.perf_counter() - started)
                    text += delta
                    if kind == "drop":
                        break
            record["content"] = text
        connection.close()
    except Exception as error:  # noqa: BLE001 - every failure is counted
        record["error"] = repr(error)
    record["seconds"] = time.perf_counter() - started
    results[index] = record


def percentile(values, share):
    values = sorted(values)
    return values[min(len(values) - 1, int(share * len(values)))] if values else float("nan")


def load(port, pid, clients, total):
    """Runs the load; returns the records by index, the seconds it took, and the server's
    resident memory in KiB before (after one request of each kind), at the peak and after."""
    results = {}
    # One request of each kind first: the grammar, automata and caches that any load builds.
    for index in range(3):
        run(port, total + index, {})
    before = resident_kib(pid)
    peak = before
    queue = list(range(total))
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                index = queue.pop(0)
            run(port, index, results)

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        peak = max(peak, resident_kib(pid))
        time.sleep(0.2)
    elapsed = time.perf_counter() - started
    time.sleep(2)
    return results, elapsed, before, peak, resident_kib(pid)


def invalid_answers(results):
    """The completed structured answers that are not a valid cat."""
    invalid = []
    for record in results.values():
        if record.get("status") == 200 and record["kind"] != "drop" and record["structured"]:
            try:
                value = json.loads(record["content"])
                assert set(value) == {"name", "age"} and 0 <= value["age"] <= 20
            except Exception:  # noqa: BLE001
                invalid.append(record)
    return invalid


def main():
    port, pid = int(sys.argv[1]), int(sys.argv[2])
    clients = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    total = int(sys.argv[4]) if len(sys.argv) > 4 else 256
    results, elapsed, before, peak, after = load(port, pid, clients, total)
    assert sorted(results) == list(range(total)), "a request was lost"
    errors = [r for r in results.values() if "error" in r]
    statuses = {}
    for record in results.values():
        statuses[record.get("status")] = statuses.get(record.get("status"), 0) + 1
    invalid = invalid_answers(results)
    answered = [r for r in results.values() if r.get("status") == 200 and r["kind"] != "drop"]
    latencies = [r["seconds"] for r in answered]
    firsts = [r["first"] for r in results.values() if "first" in r]
    print(f"{total} requests from {clients} clients in {elapsed:.1f} s: {total / elapsed:.2f} requests/s")
    print(f"statuses {statuses}; transport errors {len(errors)}; invalid answers {len(invalid)}")
    print(f"latency of answers completed: p50 {percentile(latencies, 0.5):.2f} s, p99 {percentile(latencies, 0.99):.2f} s")
    print(f"first streamed content: p50 {percentile(firsts, 0.5):.2f} s, p99 {percentile(firsts, 0.99):.2f} s")
    print(f"server resident memory: {before / 1024:.1f} MiB before, {peak / 1024:.1f} MiB peak, {after / 1024:.1f} MiB after")
    if errors or invalid:
        print(errors[:3], invalid[:3])
        sys.exit(1)


if __name__ == "__main__":
    main()
