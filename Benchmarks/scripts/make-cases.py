#!/usr/bin/env python3
"""Writes the mask benchmark's cases: each a schema, an instance of it in compact JSON with the
members in schema order (the order in which the schemas that apply to it name them, read through
`$ref`, `allOf`, the alternative of `anyOf`/`oneOf` it matches and `then`/`else`, required names
that `properties` does not list after those it lists; `jsonschema`, when installed, picks the
alternative), and the instance's tokens.

usage: make-cases.py VOCAB.json OUT.jsonl [--suite DIR]
       make-cases.py VOCAB.json OUT.jsonl --bench DIR
       make-cases.py VOCAB.json OUT.jsonl --worst-case DIR [--suite DIR] [--schemas-per-subset N]

Default sources: the schemas/ files with the instances in Benchmarks/cases/schema-instances.jsonl,
and every valid instance of the JSON-Schema-Test-Suite, draft 2020-12 as kept in Tests/Corpora,
or the draft folder that --suite names (e.g. .../JSON-Schema-Test-Suite/tests/draft7).

--bench DIR: instead, every instance, valid and invalid, of each JSONSchemaBench file DIR/*.jsonl
(one schema a line: {"id", "schema", "tests": [{"valid", "data"}]}), for the coverage comparison.
Each case also carries "subset" (the file's name without .jsonl) and "valid"; its id is the
schema's id (which starts with the subset's name) and the test's index, "Github_easy/o14025#2".
A schema id that occurs more than once in its file gets its line number, "BFCL/81@39#0". Instances
that the tokenizer cannot encode (text that is not valid UTF-8) are skipped and counted.

--worst-case DIR: the format- and pattern-heavy cases, where string sub-automata are largest:
the default cases whose schema uses `format`, `pattern` or `patternProperties` anywhere, then the
valid instances of the first N schemas (16 unless --schemas-per-subset) of each JSONSchemaBench
file DIR/*.jsonl that use them, in file order, with "subset" as for --bench.

Tokens come from a greedy longest-match over the vocabulary's non-special tokens: a valid token
sequence for the text, close to what a BPE tokenizer gives.
"""
import argparse
import collections
import json
import os
import warnings

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


def is_old_draft(root):
    """Whether the document is draft 4, 6 or 7, where keywords beside `$ref` are ignored."""
    return isinstance(root, dict) and any(f"draft-0{n}" in str(root.get("$schema", "")) for n in (4, 6, 7))


def matches(value, schema, root):
    """Whether `jsonschema` (when installed) finds the value valid for a subschema of root, its
    references read in root; without it, every schema matches."""
    try:
        import jsonschema
    except ImportError:
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # RefResolver: references into root
            resolver = jsonschema.RefResolver.from_schema(root if isinstance(root, dict) else {})
            return jsonschema.validators.validator_for(root)(schema, resolver=resolver).is_valid(value)
    except Exception:
        return False


class View:
    """What the schemas that apply to a value say about its members and items, gathered in the
    order a reader meets them: the schema's keywords in order, a `$ref`'s target where it stands,
    each `allOf` part, the first `anyOf`/`oneOf` alternative the value matches, `then` or `else`."""

    def __init__(self):
        self.names = {}
        self.required = []
        self.patterns = []
        self.additional = []
        self.prefix = []
        self.items = []

    def gather(self, value, schema, root, depth=0):
        if depth > 50 or not isinstance(schema, dict):
            return
        reference = schema.get("$ref")
        follows = isinstance(reference, str) and reference.startswith("#")
        if follows and is_old_draft(root):
            return self.gather(value, resolve(root, reference), root, depth + 1)
        for key, sub in schema.items():
            if key == "properties" and isinstance(sub, dict):
                for name, member in sub.items():
                    self.names.setdefault(name, []).append(member)
            elif key == "required" and isinstance(sub, list):
                self.required += [name for name in sub if isinstance(name, str)]
            elif key == "patternProperties" and isinstance(sub, dict):
                self.patterns += list(sub.items())
            elif key == "additionalProperties" and isinstance(sub, dict):
                self.additional.append(sub)
            elif key == "prefixItems" and isinstance(sub, list):
                self.prefix.append(sub)
            elif key == "items":
                (self.prefix if isinstance(sub, list) else self.items).append(sub)
            elif key == "$ref" and follows:
                self.gather(value, resolve(root, reference), root, depth + 1)
            elif key == "allOf" and isinstance(sub, list):
                for part in sub:
                    self.gather(value, part, root, depth + 1)
            elif key in ("anyOf", "oneOf") and isinstance(sub, list):
                chosen = next((alternative for alternative in sub if matches(value, alternative, root)), None)
                self.gather(value, chosen, root, depth + 1)
            elif key == "if":
                if matches(value, sub, root):
                    self.gather(value, sub, root, depth + 1)
                    self.gather(value, schema.get("then"), root, depth + 1)
                else:
                    self.gather(value, schema.get("else"), root, depth + 1)

    @staticmethod
    def joined(schemas):
        return schemas[0] if len(schemas) == 1 else {"allOf": schemas} if schemas else {}

    def named(self):
        """The names listed in properties, then the required names they do not list."""
        names = list(self.names)
        return names + [name for name in dict.fromkeys(self.required) if name not in self.names]

    def member(self, name):
        import re
        schemas = list(self.names.get(name, []))
        for pattern, member in self.patterns:
            try:
                if re.search(pattern, name):
                    schemas.append(member)
            except re.error:
                pass
        if name not in self.names and not schemas:
            schemas = self.additional
        return self.joined(schemas)

    def item(self, index):
        schemas = [prefix[index] for prefix in self.prefix if index < len(prefix)]
        return self.joined(schemas or self.items)


def ordered(value, schema, root, depth=0):
    """The value with object members in the order the schemas that apply to it name them (see
    View), members they do not name after those, as they came."""
    if depth > 50 or isinstance(value, bool) or not isinstance(value, (dict, list)):
        return value
    view = View()
    view.gather(value, schema, root)
    if isinstance(value, dict):
        named = view.named()
        keys = [k for k in named if k in value] + [k for k in value if k not in named]
        return {k: ordered(value[k], view.member(k), root, depth + 1) for k in keys}
    return [ordered(v, view.item(i), root, depth + 1) for i, v in enumerate(value)]


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


def uses_format_or_pattern(schema):
    """Whether a string `format` or `pattern`, or a `patternProperties`, occurs anywhere in schema."""
    if isinstance(schema, dict):
        if isinstance(schema.get("format"), str) or isinstance(schema.get("pattern"), str) \
                or isinstance(schema.get("patternProperties"), dict):
            return True
        return any(uses_format_or_pattern(value) for value in schema.values())
    if isinstance(schema, list):
        return any(uses_format_or_pattern(value) for value in schema)
    return False


def worst_cases(suite, directory, per_subset):
    """(id, schema, instance, extra fields) for the format- and pattern-heavy set."""
    cases = [case for case in default_cases(suite) if uses_format_or_pattern(case[1])]
    chosen = collections.defaultdict(set)  # per subset, the schema ids taken
    for identifier, schema, instance, fields in bench_cases(directory):
        if not fields["valid"] or not uses_format_or_pattern(schema):
            continue
        schema_id = identifier.rsplit("#", 1)[0]
        taken = chosen[fields["subset"]]
        if schema_id not in taken:
            if len(taken) >= per_subset:
                continue
            taken.add(schema_id)
        cases.append((identifier, schema, instance, {"subset": fields["subset"]}))
    return cases


def main():
    parser = argparse.ArgumentParser(description="Writes the mask benchmark's cases.")
    parser.add_argument("vocab", help="vocabulary file from make-vocabulary.py")
    parser.add_argument("out", help="cases file to write (JSON lines)")
    parser.add_argument("--suite", default=os.path.join(ROOT, "Tests/Corpora/JSON-Schema-Test-Suite/tests/draft2020-12"),
                        help="a JSON-Schema-Test-Suite draft folder (default: draft 2020-12 in Tests/Corpora)")
    parser.add_argument("--bench", metavar="DIR", help="JSONSchemaBench folder of *.jsonl: write its instances instead")
    parser.add_argument("--worst-case", metavar="DIR",
                        help="JSONSchemaBench folder of *.jsonl: write the format- and pattern-heavy set instead")
    parser.add_argument("--schemas-per-subset", type=int, default=16, metavar="N",
                        help="with --worst-case, the schemas taken from each JSONSchemaBench file (default 16)")
    arguments = parser.parse_args()
    tokenizer = Tokenizer(json.load(open(arguments.vocab)))
    if arguments.worst_case:
        cases = worst_cases(arguments.suite, arguments.worst_case, arguments.schemas_per_subset)
    elif arguments.bench:
        cases = bench_cases(arguments.bench)
    else:
        cases = default_cases(arguments.suite)
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
