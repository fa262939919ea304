"""Legitimate content: whether each engine's answer holds the values the prompt gives, exactly.

  legitimate.py check --cases Benchmarks/cases/legitimate-content.jsonl RECORDS.jsonl ...
      RECORDS are guided-bench quality's (run on the cases file) and quality.py peer's. Per
      engine and sampling it prints how many answers hold every expected value (strings compared
      exactly, numbers as numbers, arrays element by element, repeats included), and with
      --verbose each answer that does not.
"""

import argparse
import json
from collections import defaultdict


def load_jsonl(path):
    with open(path) as handle:
        return [json.loads(line) for line in handle if line.strip()]


def holds(output, expect):
    try:
        value = json.loads(output)
    except (TypeError, ValueError):
        return False
    return isinstance(value, dict) and all(value.get(key) == wanted for key, wanted in expect.items())


def check(args):
    cases = load_jsonl(args.cases)
    kept = defaultdict(int)
    total = defaultdict(int)
    for path in args.records:
        for record in load_jsonl(path):
            key = (record["engine"], record["sampling"])
            total[key] += 1
            expect = cases[record["case"]]["expect"]
            if "error" not in record and holds(record.get("output"), expect):
                kept[key] += 1
            elif args.verbose:
                print("%s %s case %d: %s (wanted %s)" % (key + (record["case"], record.get("output") or record.get("error"),
                                                          json.dumps(expect, ensure_ascii=False))))
    print("| engine | sampling | answers holding every expected value |")
    print("| --- | --- | --- |")
    for key in sorted(total):
        print("| %s | %s | %d of %d |" % (key[0], key[1], kept[key], total[key]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    checking = commands.add_parser("check")
    checking.add_argument("--cases", default="Benchmarks/cases/legitimate-content.jsonl")
    checking.add_argument("--verbose", action="store_true")
    checking.add_argument("records", nargs="+")
    args = parser.parse_args()
    check(args)


if __name__ == "__main__":
    main()
