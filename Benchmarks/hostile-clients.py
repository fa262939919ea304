"""Hostile clients against `guided serve` and llama.cpp's llama-server on the same GGUF file:
slow heads, a client that holds every connection it can with heads it never finishes, oversized
heads and bodies, malformed bodies, fields of the wrong type, a hostile schema (alone and four at
once beside a legitimate request), a prompt larger than any context, a chunked body, dropped
streams, 32 clients at once, and the API key. Each check prints what each server did; for
`guided serve` it also says whether that is what it must do, and the script fails when it is not.

usage: python3 Benchmarks/hostile-clients.py GUIDED LLAMA_SERVER|- MODEL [--short] [--only WORD,...]
  GUIDED is the `guided` binary (a release build), LLAMA_SERVER llama.cpp's server or `-` to run
  this engine alone; --short (as CI runs it) sends fewer malformed bodies and holds the flood for
  less time; --only runs the checks whose name holds one of the WORDs. Both servers run with the API key
  `hostile-key`, on every core, with 4 parallel slots.
Only the Python standard library.
"""
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

KEY = "hostile-key"
HOST = "127.0.0.1"


def free_port():
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def start(command, port):
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 600
    while time.time() < deadline:
        if exchange(port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout=2)[0] == 200:
            return server
        if server.poll() is not None:
            sys.exit(f"{command[0]} exited with {server.returncode}")
        time.sleep(0.5)
    server.kill()
    sys.exit(f"{command[0]} did not start")


def exchange(port, data, timeout=60):
    """Sends `data` on a fresh connection and reads until the server closes or the response is
    whole; gives (status or None, body bytes, seconds)."""
    started = time.time()
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as connection:
            connection.sendall(data)
            received = b""
            while True:
                piece = connection.recv(65536)
                if not piece:
                    break
                received += piece
                if complete(received):
                    break
    except OSError:
        return None, b"", time.time() - started
    return status_of(received), received.partition(b"\r\n\r\n")[2], time.time() - started


def complete(received):
    head, separator, body = received.partition(b"\r\n\r\n")
    if not separator:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value.strip())
    return body.endswith(b"0\r\n\r\n") or b"data: [DONE]" in body


def status_of(received):
    try:
        return int(received.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def post(body, key=KEY, extra=b""):
    payload = body if isinstance(body, bytes) else json.dumps(body).encode()
    auth = b"Authorization: Bearer " + key.encode() + b"\r\n" if key else b""
    return (b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n" + auth + extra
            + b"Content-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload)


def chat(content="Name a color.", tokens=16, **fields):
    return {"messages": [{"role": "user", "content": content}], "max_tokens": tokens, "temperature": 0, **fields}


HEALTH = b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def slow_head(port):
    """A head that never ends: how long until the server closes, and with what."""
    status, _, seconds = exchange(port, b"GET /health HTTP/1.1\r\nHost: x\r\n", timeout=90)
    return f"{status} after {seconds:.1f} s", status == 408 and seconds < 15


def flood(port, seconds):
    """One client opens connections sending part of a head, and reopens each the server
    closes, for `seconds`; meanwhile other clients ask /health and a chat completion."""
    stop = threading.Event()
    opened = [0]

    def attacker():
        sockets = []
        while not stop.is_set():
            try:
                connection = socket.create_connection((HOST, port), timeout=2)
                connection.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                connection.setblocking(False)
                sockets.append(connection)
                opened[0] += 1
            except OSError:
                time.sleep(0.01)
            # Closed connections are dropped, so that the next round reopens them.
            alive = []
            for connection in sockets:
                try:
                    if connection.recv(1) == b"":
                        connection.close()
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    connection.close()
                    continue
                alive.append(connection)
            sockets = alive[-400:]
            for connection in alive[:-400]:
                connection.close()
        for connection in sockets:
            connection.close()

    thread = threading.Thread(target=attacker)
    thread.start()
    time.sleep(min(3, seconds / 2))
    health = []
    chats = []
    chatter = threading.Thread(target=lambda: chats.extend(exchange(port, post(chat()), timeout=60)[0] for _ in range(2)))
    chatter.start()
    end = time.time() + seconds
    while time.time() < end:
        health.append(exchange(port, HEALTH, timeout=10)[0])
        time.sleep(0.2)
    chatter.join()
    stop.set()
    thread.join()
    good = sum(1 for status in health if status == 200)
    text = f"/health {good}/{len(health)} answered 200; chat {chats}; {opened[0]} connections opened by the attacker"
    return text, good == len(health) and all(status == 200 for status in chats)


def big_head(port):
    status, _, seconds = exchange(port, b"GET /health HTTP/1.1\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n")
    return f"{status} in {seconds:.2f} s", status == 431


def big_body(port):
    data = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY.encode()
            + b"\r\nContent-Length: 1000000000\r\n\r\n{")
    status, _, seconds = exchange(port, data)
    return f"{status} in {seconds:.2f} s", status == 413 and seconds < 2


def malformed(port, count):
    generator = random.Random(1)
    good = json.dumps(chat())
    bodies = []
    for index in range(count):
        kind = index % 5
        if kind == 0:
            bodies.append(bytes(generator.randrange(256) for _ in range(generator.randrange(1, 200))))
        elif kind == 1:
            bodies.append(good[: generator.randrange(1, len(good))].encode())
        elif kind == 2:
            field = generator.choice(["messages", "max_tokens", "temperature", "response_format", "tools", "stream", "seed", "top_p"])
            value = generator.choice(["1", "-1", "\"x\"", "[]", "{}", "null", "true", "1e999", "[[[[]]]]"])
            bodies.append(good[:-1].encode() + f',"{field}":{value}}}'.encode())
        elif kind == 3:
            bodies.append(("[" * generator.randrange(100, 5000)).encode())
        else:
            bodies.append(json.dumps({"messages": [{"role": generator.choice(["user", "robot", 3]), "content": generator.choice([None, 3, [], [{"type": "image"}]])}]}).encode())
    statuses = [exchange(port, post(body))[0] for body in bodies]
    server_errors = sum(1 for status in statuses if status is None or status >= 500)
    answered = sum(1 for status in statuses if status is not None)
    return f"{answered}/{count} answered, {server_errors} with 5xx or no answer", server_errors == 0


FIELDS = [("stop", "-1"), ("stop", "1.5"), ("stop", "true"), ("stop", '{"a":1}'), ("stop", "18446744073709551616"), ("stop", "1e308"),
          ("messages", '[{"role":"user"}]'), ("messages", '[{"role":"user","content":null}]'), ("max_tokens", '"many"'),
          ("temperature", '"hot"'), ("seed", "1.5"), ("stream", '"yes"')]


def field_types(port):
    statuses = []
    for name, value in FIELDS:
        base = chat()
        base.pop(name, None)
        body = json.dumps(base)[:-1] + f',"{name}":{value}}}'
        statuses.append(exchange(port, post(body.encode()))[0])
    refused = sum(1 for status in statuses if status == 400)
    return f"{refused}/{len(FIELDS)} refused with 400 (others: {sorted(set(s for s in statuses if s != 400), key=str)})", refused == len(FIELDS)


def enum_schema(count):
    return {"type": "json_schema", "json_schema": {"name": "pick", "schema": {"type": "string", "enum": [f"value{i:06d}" for i in range(count)]}}}


def hostile_schema(port):
    status, _, seconds = exchange(port, post(chat(response_format=enum_schema(200_000))), timeout=120)
    return f"{status} in {seconds:.2f} s", status is not None and 400 <= status < 500 and seconds < 5


def alone(port):
    """The legitimate request of the next check, alone: the time to compare with."""
    status, _, seconds = exchange(port, post(chat()), timeout=120)
    return f"{status} in {seconds:.2f} s", status == 200


def hostile_schemas_beside(port):
    """Four hostile schemas at once, and a legitimate request sent just after them."""
    results = []
    threads = [threading.Thread(target=lambda: results.append(exchange(port, post(chat(response_format=enum_schema(200_000))), timeout=120)))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    status, _, seconds = exchange(port, post(chat()), timeout=120)
    for thread in threads:
        thread.join()
    return f"legitimate request {status} in {seconds:.2f} s", status == 200 and seconds < 20


def huge_prompt(port):
    status, body, seconds = exchange(port, post(chat(content="word " * 1_560_000)), timeout=120)
    return f"{status} in {seconds:.2f} s", status == 400 and seconds < 3


def chunked(port):
    payload = json.dumps(chat()).encode()
    pieces = [payload[i:i + 7] for i in range(0, len(payload), 7)]
    body = b"".join(f"{len(piece):x}\r\n".encode() + piece + b"\r\n" for piece in pieces) + b"0\r\n\r\n"
    data = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer " + KEY.encode()
            + b"\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
    status, _, seconds = exchange(port, data)
    return f"{status} in {seconds:.2f} s", status == 200


def dropped_streams(port):
    for _ in range(8):
        try:
            connection = socket.create_connection((HOST, port), timeout=30)
            connection.sendall(post(chat(tokens=400, stream=True, content="Write a long story.")))
            connection.recv(4096)
            connection.close()
        except OSError:
            pass
    status, _, seconds = exchange(port, post(chat()), timeout=120)
    return f"next request {status} in {seconds:.2f} s", status == 200 and seconds < 30


def load(port, clients=32):
    results = []
    lock = threading.Lock()

    def client(index):
        # A story runs past the limit, so that every answer has the same length on both servers.
        outcome = exchange(port, post(chat(content=f"Write a long story about the number {index}.", tokens=32)), timeout=300)
        with lock:
            results.append(outcome)

    started = time.time()
    threads = [threading.Thread(target=client, args=(index,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.time() - started
    good = sum(1 for status, _, _ in results if status == 200)
    tokens = 0
    for status, body, _ in results:
        try:
            tokens += json.loads(body)["usage"]["completion_tokens"] if status == 200 else 0
        except (ValueError, KeyError, TypeError):
            pass
    return f"{good}/{clients} answered 200 in {seconds:.1f} s, {tokens} tokens, {tokens / seconds:.1f} tokens/s", good == clients


def authorization(port):
    without = exchange(port, post(chat(), key=None))[0]
    wrong = exchange(port, post(chat(), key="wrong"))[0]
    health = exchange(port, HEALTH)[0]
    return f"no key {without}, wrong key {wrong}, /health {health}", without == 401 and wrong == 401 and health == 200


def checks(short):
    return [
        ("slow head (never finished)", slow_head),
        ("flood of unfinished heads", lambda port: flood(port, 6 if short else 20)),
        ("oversized head (70 kB)", big_head),
        ("oversized body (Content-Length 1 GB)", big_body),
        ("malformed bodies", lambda port: malformed(port, 50 if short else 200)),
        ("fields of the wrong type", field_types),
        ("schema with a 200,000-value enum", hostile_schema),
        ("a request alone", alone),
        ("the same beside four such schemas", hostile_schemas_beside),
        ("prompt of 7.8 MB", huge_prompt),
        ("chunked body", chunked),
        ("8 streams dropped after the first chunk", dropped_streams),
        ("32 clients at once", load),
        ("API key", authorization),
    ]


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--short"]
    short = "--short" in sys.argv
    only = ""
    if "--only" in arguments:
        at = arguments.index("--only")
        only = arguments[at + 1] if at + 1 < len(arguments) else sys.exit(__doc__)
        del arguments[at:at + 2]
    if len(arguments) != 3:
        sys.exit(__doc__)
    selected = [(check, run) for check, run in checks(short) if any(word in check for word in only.split(","))]
    guided, llama, model = arguments
    servers = []
    port = free_port()
    servers.append(("guided serve", port, [guided, "serve", "--model", model, "--port", str(port), "--parallel", "4",
                                           "--api-key", KEY]))
    if llama != "-":
        port = free_port()
        servers.append(("llama-server", port, [llama, "-m", model, "--port", str(port), "-t", "2", "-np", "4", "-c", "8192", "--jinja",
                                               "--api-key", KEY]))
    results = {}
    for name, port, command in servers:
        server = start(command, port)
        try:
            for check, run in selected:
                results.setdefault(check, {})[name] = run(port)
                print(f"{name}: {check}: {results[check][name][0]}", file=sys.stderr)
        finally:
            server.kill()
            server.wait()
    names = [name for name, _, _ in servers]
    print("| check | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    failed = []
    for check, _ in selected:
        cells = []
        for name in names:
            text, passed = results[check][name]
            mark = ("pass" if passed else "FAIL") if name == "guided serve" else ""
            cells.append(f"{text}" + (f" ({mark})" if mark else ""))
            if name == "guided serve" and not passed:
                failed.append(check)
        print(f"| {check} | " + " | ".join(cells) + " |")
    if failed:
        sys.exit("guided serve failed: " + ", ".join(failed))


if __name__ == "__main__":
    main()
