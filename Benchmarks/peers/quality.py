"""Answer quality on Benchmarks/cases/quality-prompts.jsonl: ask llama-server what guided-bench
quality asked the local model, then check every answer of both.

  quality.py peer --server URL --records guided.jsonl --out peer.jsonl
      replays each record's chat messages against an OpenAI-compatible server (llama-server with
      the same GGUF), with the schema as response_format json_schema (strict), greedy as
      temperature 0 and each seed as temperature 0.7 with top_p 0.9 and that seed
  quality.py check [--verbose] [--prompts FILE] [--schemas DIR] RECORDS.jsonl ...
      prints, per engine and sampling, how many answers pass each check and all of them:
        valid     the output parses and the schema accepts it (jsonschema, the schema's draft)
        filled    no empty string anywhere in the value, and no empty array outside arrays (the
                  leaves of a recursive type, such as a reply's replies, may be empty)
        no repeat no array holds the same element twice (strings compared without case and
                  surrounding spaces), and no string repeats a run of four words three times
        on topic  one of the prompt's topic words appears in the value's strings
        clean     no control characters, replacement characters, markup or code: braces, angle
                  brackets, backslashes, underscores, '://', 'www.', or camelCase words (the
                  schema's own enum and const strings excepted)
      and the tokens of the answers (median, largest).
  quality.py same A.jsonl B.jsonl
      compares two runs of the same prompts (with and without fast-forward, say): how many
      answers are the same text, where each other one first differs, and the response tokens
      per second of each run (tokens over response seconds, all answers together)
"""

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

import jsonschema


def load_jsonl(path):
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def peer(args):
    from openai import OpenAI

    client = OpenAI(base_url=args.server.rstrip("/") + "/v1", api_key="unused")
    schemas = {}
    with open(args.out, "w") as out:
        for record in load_jsonl(args.records):
            name = record["schema"]
            if "schemaText" in record:
                schemas[name] = json.loads(record["schemaText"])
            elif name not in schemas:
                schemas[name] = json.loads(Path(args.schemas, name + ".json").read_text())
            sampling = record["sampling"]
            settings = {"temperature": 0.0} if sampling == "greedy" else {
                "temperature": 0.7, "top_p": 0.9, "seed": int(sampling.split()[1])}
            result = {"engine": "llama-server", "case": record["case"], "schema": name, "sampling": sampling}
            started = time.monotonic()
            try:
                reply = client.chat.completions.create(
                    model="model", messages=record["messages"], max_tokens=args.max_tokens,
                    response_format={"type": "json_schema",
                                     "json_schema": {"name": name.replace(" ", "-"), "schema": schemas[name], "strict": True}},
                    **settings)
                result["output"] = reply.choices[0].message.content
                result["tokens"] = reply.usage.completion_tokens
                if reply.choices[0].finish_reason == "length":
                    result["error"] = "the response was not complete after %d tokens" % args.max_tokens
            except Exception as error:  # the server's refusal is a failed answer, not a crash
                result["error"] = str(error)
            result["seconds"] = time.monotonic() - started
            out.write(json.dumps(result, sort_keys=True) + "\n")
            print("%s %s %s" % (record["case"], name, sampling), file=sys.stderr)


def strings_of(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for element in value:
            yield from strings_of(element)
    elif isinstance(value, dict):
        for element in value.values():
            yield from strings_of(element)


def containers_of(value, outermost=False):
    """The arrays and objects in a value; with `outermost`, not those inside an array."""
    if isinstance(value, (list, dict)):
        yield value
        if outermost and isinstance(value, list):
            return
        for element in (value if isinstance(value, list) else value.values()):
            yield from containers_of(element, outermost)


def normalized(element):
    if isinstance(element, str):
        return " ".join(element.lower().split())
    return json.dumps(element, sort_keys=True)


WORD = re.compile(r"\w+")
JUNK = re.compile(r"[\x00-\x1f\x7f\ufffd{}<>\\_]|://|www\.|[a-z]{2,}[A-Z]")


def loops(text):
    """Whether a run of four words comes back three times."""
    words = WORD.findall(text.lower())
    counts = defaultdict(int)
    for index in range(len(words) - 3):
        counts[tuple(words[index:index + 4])] += 1
    return any(count >= 3 for count in counts.values())


def enumerated(schema):
    """The strings a schema names as enum or const values (they are not junk, whatever they look like)."""
    found = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "enum" and isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
            elif key == "const" and isinstance(value, str):
                found.add(value)
            else:
                found |= enumerated(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= enumerated(value)
    return found


def failures(record, prompt, validators, fixed):
    """The names of the checks an answer fails; `fixed` holds the schema's enum and const strings."""
    if record.get("error") or record.get("output") is None:
        return ["valid"]
    try:
        value = json.loads(record["output"])
    except ValueError:
        return ["valid"]
    failed = []
    if not validators[record["schema"]].is_valid(value):
        failed.append("valid")
    strings = list(strings_of(value))
    if any(not text.strip() for text in strings) or any(len(c) == 0 for c in containers_of(value, outermost=True) if isinstance(c, list)):
        failed.append("filled")
    repeated = any(len({normalized(e) for e in c}) < len(c) for c in containers_of(value) if isinstance(c, list))
    if repeated or any(loops(text) for text in strings):
        failed.append("no repeat")
    text = " ".join(strings).lower()
    if not any(topic in text for topic in prompt["topic"]):
        failed.append("on topic")
    if any(JUNK.search(text) for text in strings if text not in fixed):
        failed.append("clean")
    return failed


CHECKS = ["valid", "filled", "no repeat", "on topic", "clean"]


def check(args):
    prompts = load_jsonl(args.prompts)
    validators = {}
    fixed = {}
    for prompt in prompts:
        name = prompt["schema"]
        if name not in validators:
            schema = json.loads(Path(args.schemas, name + ".json").read_text())
            validators[name] = jsonschema.validators.validator_for(schema)(schema)
            fixed[name] = enumerated(schema)
    groups = defaultdict(list)
    for path in args.records:
        for record in load_jsonl(path):
            groups[(record["engine"], "greedy" if record["sampling"] == "greedy" else "seeds")].append(record)
    print("%-14s %-7s %7s" % ("engine", "", "answers") + "".join(" %9s" % name for name in CHECKS)
          + " %9s %7s %6s %8s" % ("all", "share", "tokens", "largest"))
    for (engine, sampling), records in sorted(groups.items()):
        counts = defaultdict(int)
        tokens = sorted(record.get("tokens", 0) for record in records)
        for record in records:
            failed = failures(record, prompts[record["case"]], validators, fixed[record["schema"]])
            for name in CHECKS:
                counts[name] += name not in failed
            counts["all"] += not failed
            if failed and args.verbose:
                print("  %s %s case %d %s: fails %s: %s" % (
                    engine, record["sampling"], record["case"], record["schema"], ", ".join(failed),
                    (record.get("error") or record.get("output") or "")[:300]))
        print("%-14s %-7s %7d" % (engine, sampling, len(records)) + "".join(" %9d" % counts[name] for name in CHECKS)
              + " %9d %6.1f%% %6d %8d" % (counts["all"], 100.0 * counts["all"] / max(len(records), 1),
                                           tokens[len(tokens) // 2] if tokens else 0, tokens[-1] if tokens else 0))


def same(args):
    first, second = load_jsonl(args.runs[0]), load_jsonl(args.runs[1])
    pairs = {(r["case"], r["sampling"]): r for r in first}
    identical, compared = 0, 0
    for record in second:
        other = pairs.get((record["case"], record["sampling"]))
        if other is None:
            continue
        compared += 1
        a, b = other.get("output") or other.get("error") or "", record.get("output") or record.get("error") or ""
        if a == b:
            identical += 1
            continue
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        print("case %d %s: differs at character %d: %r / %r" % (
            record["case"], record.get("schema", ""), at, a[max(0, at - 40):at + 40], b[max(0, at - 40):at + 40]))
    print("%d of %d answers the same text (%.1f%%)" % (identical, compared, 100.0 * identical / max(compared, 1)))
    for path, records in zip(args.runs, (first, second)):
        tokens = sum(r.get("tokens", 0) for r in records)
        seconds = sum(r.get("responseSeconds", 0) for r in records)
        forced = sum(r.get("forced", 0) for r in records)
        print("%s: %d tokens (%d forced, %.1f%%), %.1f tokens/s" % (
            path, tokens, forced, 100.0 * forced / max(tokens, 1), tokens / seconds if seconds else 0))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    ask = commands.add_parser("peer")
    ask.add_argument("--server", required=True)
    ask.add_argument("--records", required=True)
    ask.add_argument("--out", required=True)
    ask.add_argument("--schemas", default="schemas")
    ask.add_argument("--max-tokens", type=int, default=1024)
    judge = commands.add_parser("check")
    judge.add_argument("records", nargs="+")
    judge.add_argument("--prompts", default="Benchmarks/cases/quality-prompts.jsonl")
    judge.add_argument("--schemas", default="schemas")
    judge.add_argument("--verbose", action="store_true")
    compare = commands.add_parser("same")
    compare.add_argument("runs", nargs=2)
    args = parser.parse_args()
    {"peer": peer, "check": check, "same": same}[args.command](args)


if __name__ == "__main__":
    main()
