#!/usr/bin/env python3
"""Prints schema coverage and correctness per JSONSchemaBench subset for GuidedGeneration,
XGrammar and llguidance, with their timings.

usage: coverage.py OURS.jsonl XGRAMMAR.jsonl LLGUIDANCE.jsonl CASES.jsonl

The first three are the records of `guided-bench masks` and run_peers.py on the same cases; an
engine's file may be given as - to leave that engine out. CASES.jsonl comes from
`make-cases.py --bench DIR`, whose cases carry "subset" and "valid".

For each subset, then for all subsets together, per engine:
- schemas compiled: schemas (the part of a case id before '#') none of whose cases failed to
  compile (refused, timed out or crashed while compiling); a case missing from an engine's
  file counts as not compiled;
- valid accepted: valid instances whose every token, and end-of-text after them, were allowed;
- valid rejected: valid instances whose schema compiled but that were rejected somewhere;
- invalid accepted: invalid instances let through to end-of-text: the engine does not enforce
  what makes them invalid (or the instance breaks a rule the engine was told to relax, such as
  extra properties);
- compile and mask percentiles over the valid cases that every engine accepted, as in
  compare.py, so that each engine is timed on the same work.
Instances labeled invalid that `jsonschema` (when installed) validates against their schema, by
its draft, are listed and left out when the schema has no `format` (which jsonschema checks only
where optional libraries are installed): letting them through is no false accept.
"""
import json
import sys

from compare import load, percentile

NAMES = ["GuidedGeneration", "XGrammar", "llguidance"]


def compile_failed(record):
    """Whether a case's schema did not compile: its record is missing, or has an error raised
    before any mask. run_peers.py marks where an error happened ("stage"); guided-bench's
    refusals have no reject_at."""
    if record is None:
        return True
    if "error" not in record:
        return False
    if "stage" in record:
        return record["stage"] == "compile"
    return record.get("reject_at") is None


def contradicts_invalid_label(case):
    """Whether `jsonschema` (when installed) finds the instance of a case labeled invalid valid
    for its schema, by the schema's draft: such a label is the corpus's error."""
    try:
        import jsonschema
    except ImportError:
        return False
    if '"format"' in json.dumps(case["schema"]):
        # jsonschema checks only the formats whose libraries are installed: no verdict.
        return False
    try:
        validator = jsonschema.validators.validator_for(case["schema"])(case["schema"])
        return validator.is_valid(json.loads(case["instance"]))
    except Exception:
        return False


def table(title, cases, engines):
    schemas = sorted({case["id"].split("#")[0] for case in cases})
    valid = [case for case in cases if case["valid"]]
    invalid = [case for case in cases if not case["valid"]]
    common = [case["id"] for case in valid if all(run.get(case["id"], {}).get("accepted") for _, run in engines)]
    masks = sum(len(engines[0][1][identifier]["mask_us"]) for identifier in common) if engines else 0
    print(f"### {title}\n")
    print(f"{len(schemas)} schemas, {len(valid)} valid and {len(invalid)} invalid instances; timings over the "
          f"{len(common)} valid instances every engine accepts ({masks} masks each)\n")
    print("| engine | schemas compiled | valid accepted | valid rejected | invalid accepted | compile p50 ms | "
          "compile p99 ms | mask p50 µs | mask p99 µs | mask max µs |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, run in engines:
        failed = {case["id"].split("#")[0] for case in cases if compile_failed(run.get(case["id"]))}
        accepted = sum(1 for case in valid if run.get(case["id"], {}).get("accepted"))
        rejected = sum(1 for case in valid if not compile_failed(run.get(case["id"])) and not run[case["id"]].get("accepted"))
        let_through = sum(1 for case in invalid if run.get(case["id"], {}).get("accepted"))
        compile_ms = [run[identifier]["compile_ms"] for identifier in common]
        mask_us = [time for identifier in common for time in run[identifier]["mask_us"]]
        print(f"| {name} | {len(schemas) - len(failed)} | {accepted} | {rejected} | {let_through} | "
              f"{percentile(compile_ms, 50):.3f} | {percentile(compile_ms, 99):.3f} | {percentile(mask_us, 50):.2f} | "
              f"{percentile(mask_us, 99):.2f} | {max(mask_us) if mask_us else float('nan'):.1f} |")
    print()


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__.split("\n\n")[1])
    engines = [(name, load(path)) for name, path in zip(NAMES, sys.argv[1:4]) if path != "-"]
    cases = []
    contradicted = []
    with open(sys.argv[4]) as handle:
        for line in handle:
            case = json.loads(line)
            if "subset" not in case or "valid" not in case:
                raise SystemExit(f"{sys.argv[4]}: case {case.get('id')} has no subset or valid flag (make-cases.py --bench)")
            cases.append({"id": case["id"], "subset": case["subset"], "valid": case["valid"]})
            if not case["valid"] and contradicts_invalid_label(case):
                contradicted.append(case["id"])
    if contradicted:
        # Counted as neither valid nor invalid: a let-through would not be a false accept.
        print(f"{len(contradicted)} instances labeled invalid that jsonschema validates, left out: {', '.join(contradicted)}\n")
        cases = [case for case in cases if case["id"] not in set(contradicted)]
    known = {case["id"] for case in cases} | set(contradicted)
    for name, run in engines:
        missing = sum(1 for case in cases if case["id"] not in run)
        extra = sum(1 for identifier in run if identifier not in known)
        if missing or extra:
            print(f"{name}: {missing} cases without a record (counted as not compiled), {extra} records of other cases\n")
    subsets = list(dict.fromkeys(case["subset"] for case in cases))
    for subset in subsets:
        table(subset, [case for case in cases if case["subset"] == subset], engines)
    table("all subsets", cases, engines)


if __name__ == "__main__":
    main()
