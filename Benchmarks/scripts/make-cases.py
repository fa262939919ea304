#!/usr/bin/env python3
"""Writes the mask benchmark's cases: each a schema, an instance of it in compact JSON with the
members in schema order, and the instance's tokens.

usage: make-cases.py VOCAB.json OUT.jsonl [--suite DIR]
       make-cases.py VOCAB.json OUT.jsonl --bench DIR

Default sources: the schemas/ files with the instances in Benchmarks/cases/schema-instances.jsonl,
and every valid instance of the JSON-Schema-Test-Suite, draft 2020-12 as kept in Tests/Corpora,
or the draft folder that --suite names (e.g. .../JSON-Schema-Test-Suite/tests/draft7).

--bench DIR: instead, every instance, valid and invalid, of each JSONSchemaBench file DIR/*.jsonl
(one schema a line: {"id", "schema", "tests": [{"valid", "data"}]}), for the coverage comparison.
Each case also carries "subset" (the file's name without .jsonl) and "valid"; its id is the
schema's id (which starts with the subset's name) and the test's index, "Github_easy/o14025#2".
A schema id that occurs more than once in its file gets its line number, "BFCL/81@39#0". Instances
that the tokenizer cannot encode (text that is not valid UTF-8) are skipped and counted.

Tokens come from a greedy longest-match over the vocabulary's non-special tokens: a valid token
sequence for the text, close to what a BPE tokenizer gives.
"""
import argparse
import collections
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def resolve(root, reference):
    if reference == "#":
        return root
    node = root
    for token in reference[2:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return {}
    return node


def ordered(value, schema, root, depth=0):
    """The value with object members in the order the schema's properties list them."""
    if depth > 50 or not isinstance(schema, dict):
        schema = {}
    if "$ref" in schema and isinstance(schema["$ref"], str) and schema["$ref"].startswith("#"):
        return ordered(value, resolve(root, schema["$ref"]), root, depth + 1)
    if isinstance(value, dict):
        properties = schema.get("properties", {}) if isinstance(schema.get("properties"), dict) else {}
        keys = [k for k in properties if k in value] + [k for k in value if k not in properties]
        extra = schema.get("additionalProperties", {})
        return {k: ordered(value[k], properties.get(k, extra if isinstance(extra, dict) else {}), root, depth + 1) for k in keys}
    if isinstance(value, list):
        prefix = schema.get("prefixItems", []) if isinstance(schema.get("prefixItems"), list) else []
        items = schema.get("items", {})
        return [ordered(v, prefix[i] if i < len(prefix) else (items if isinstance(items, dict) else {}), root, depth + 1) for i, v in enumerate(value)]
    return value


def canonical_number(value):
    if isinstance(value, bool) or not isinstance(value, float):
        return value
    return int(value) if value.is_integer() and abs(value) < 1e15 else value


def normalize(value):
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v) for v in value]
    return canonical_number(value)


class Tokenizer:
    def __init__(self, vocabulary):
        special = set(vocabulary["special"]) | {vocabulary["eos_token_id"]}
        self.by_bytes = {}
        self.longest = 1
        for index, token in enumerate(vocabulary["tokens"]):
            raw = bytes.fromhex(token)
            if index in special or not raw or raw in self.by_bytes:
                continue
            self.by_bytes[raw] = index
            self.longest = max(self.longest, len(raw))

    def encode(self, text):
        data = text.encode("utf-8")
        tokens = []
        position = 0
        while position < len(data):
            for length in range(min(self.longest, len(data) - position), 0, -1):
                token = self.by_bytes.get(data[position:position + length])
                if token is not None:
                    tokens.append(token)
                    position += length
                    break
            else:
                raise ValueError(f"no token for byte {data[position]}")
        return tokens


def default_cases(suite):
    """(id, schema, instance, extra fields) for the schemas/ files and the suite's valid instances."""
    cases = []
    with open(os.path.join(ROOT, "Benchmarks/cases/schema-instances.jsonl")) as handle:
        for number, line in enumerate(handle):
            entry = json.loads(line)
            schema = json.load(open(os.path.join(ROOT, "schemas", entry["schema_file"])))
            cases.append((f"schemas/{entry['schema_file']}#{number}", schema, entry["instance"], {}))
    for name in sorted(n for n in os.listdir(suite) if n.endswith(".json")):
        for group_index, group in enumerate(json.load(open(os.path.join(suite, name)))):
            for test_index, test in enumerate(group["tests"]):
                if test["valid"]:
                    cases.append((f"{name}#{group_index}.{test_index}", group["schema"], test["data"], {}))
    return cases


def bench_cases(directory):
    """(id, schema, instance, extra fields) for every test of every JSONSchemaBench file."""
    cases = []
    for name in sorted(n for n in os.listdir(directory) if n.endswith(".jsonl")):
        subset = name[:-len(".jsonl")]
        with open(os.path.join(directory, name)) as handle:
            entries = [json.loads(line) for line in handle if line.strip()]
        counts = collections.Counter(entry["id"] for entry in entries)
        for line_number, entry in enumerate(entries):
            schema_id = entry["id"] if counts[entry["id"]] == 1 else f"{entry['id']}@{line_number}"
            for test_index, test in enumerate(entry["tests"]):
                fields = {"subset": subset, "valid": bool(test["valid"])}
                cases.append((f"{schema_id}#{test_index}", entry["schema"], test["data"], fields))
    return cases


def main():
    parser = argparse.ArgumentParser(description="Writes the mask benchmark's cases.")
    parser.add_argument("vocab", help="vocabulary file from make-vocabulary.py")
    parser.add_argument("out", help="cases file to write (JSON lines)")
    parser.add_argument("--suite", default=os.path.join(ROOT, "Tests/Corpora/JSON-Schema-Test-Suite/tests/draft2020-12"),
                        help="a JSON-Schema-Test-Suite draft folder (default: draft 2020-12 in Tests/Corpora)")
    parser.add_argument("--bench", metavar="DIR", help="JSONSchemaBench folder of *.jsonl: write its instances instead")
    arguments = parser.parse_args()
    tokenizer = Tokenizer(json.load(open(arguments.vocab)))
    cases = bench_cases(arguments.bench) if arguments.bench else default_cases(arguments.suite)
    written = 0
    skipped = 0
    with open(arguments.out, "w") as out:
        for identifier, schema, instance, fields in cases:
            text = json.dumps(normalize(ordered(instance, schema, schema)), separators=(",", ":"), ensure_ascii=False)
            try:
                tokens = tokenizer.encode(text)
            except ValueError:  # no token for a byte, or text that is not valid UTF-8 (a lone surrogate)
                skipped += 1
                continue
            record = {"id": identifier, "schema": schema, "instance": text, "tokens": tokens}
            record.update(fields)
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            written += 1
    print(f"{arguments.out}: {written} cases" + (f", {skipped} skipped (not tokenizable)" if skipped else ""))


if __name__ == "__main__":
    main()
