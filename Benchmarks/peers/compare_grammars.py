#!/usr/bin/env python3
"""Prints the grammar mask benchmark's figures: per engine, compile time and per-token mask time
over the GBNF cases and over the Lark cases, with ratios against the faster peer.

usage: compare_grammars.py CASES.jsonl RESULTS_DIR [--per-grammar]

RESULTS_DIR holds ENGINE.ROUND.jsonl for ENGINE in ours, xgrammar, llguidance and ROUND 1, 2, ...
(from `guided-bench masks` and `run_peers.py` on CASES.jsonl, made by make-grammar-cases.py).
Each figure is the median over the rounds of that round's statistic. Within a format, the
figures are over the cases that every engine reading that format accepts (XGrammar reads no
Lark), so that each does the same work; an engine that accepts none of a format's cases is
listed with its first error and left out of that format's common cases. Compile times are over
the grammars of those cases, one compile each; mask times over every mask of those cases.
"largest in every round" is the largest over the masks of each mask's smallest time over the
rounds: a mask slowed once by the scheduler of a shared machine does not count.
--per-grammar adds a table per grammar over the samples each engine accepts.
"""
import collections
import glob
import json
import os
import statistics
import sys

ENGINES = [("ours", "GuidedGeneration"), ("xgrammar", "XGrammar"), ("llguidance", "llguidance")]
READS = {"gbnf": ["ours", "xgrammar", "llguidance"], "lark": ["ours", "llguidance"]}
FORMAT_NAMES = {"gbnf": "GBNF (llama.cpp's grammars)", "lark": "Lark (Benchmarks/cases/grammars)"}


def percentile(values, percent):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(percent / 100 * (len(ordered) - 1))))]


def load(path):
    return {record["id"]: record for record in map(json.loads, open(path))}


def grammar_of(identifier):
    return identifier.rsplit("#", 1)[0]


def statistics_of(run, identifiers):
    """(compile p50, compile max, mask p50, p99, p99.9, max, masks) of one round over the cases."""
    compiles = {}
    for identifier in identifiers:
        compiles.setdefault(grammar_of(identifier), run[identifier]["compile_ms"])
    masks = [time for identifier in identifiers for time in run[identifier]["mask_us"]]
    values = list(compiles.values())
    return (percentile(values, 50), max(values) if values else float("nan"), percentile(masks, 50), percentile(masks, 99),
            percentile(masks, 99.9), max(masks) if masks else float("nan"), len(masks))


def median_over(rounds, identifiers):
    per_round = [statistics_of(run, identifiers) for run in rounds]
    return [statistics.median(column) for column in zip(*per_round)] + [largest_in_every_round(rounds, identifiers)]


def largest_in_every_round(rounds, identifiers):
    """The largest of each mask's smallest time over the rounds (the masks a case computes are the
    same in every round)."""
    largest = float("nan")
    for identifier in identifiers:
        for times in zip(*(run[identifier]["mask_us"] for run in rounds)):
            if not largest >= min(times):
                largest = min(times)
    return largest


def main():
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    per_grammar = "--per-grammar" in sys.argv
    if len(arguments) != 2:
        raise SystemExit(__doc__)
    cases_path, directory = arguments
    cases = [json.loads(line) for line in open(cases_path) if line.strip()]
    runs = {}
    for engine, _ in ENGINES:
        paths = sorted(glob.glob(os.path.join(directory, f"{engine}.*.jsonl")))
        runs[engine] = [load(path) for path in paths]
    rounds = min(len(found) for found in runs.values() if found) if any(runs.values()) else 0
    print(f"{len(cases)} cases, {len({grammar_of(c['id']) for c in cases})} grammars; "
          f"rounds: " + ", ".join(f"{name} {len(runs[engine])}" for engine, name in ENGINES)
          + "; each figure the median over the rounds\n")
    names = dict(ENGINES)
    for form in ("gbnf", "lark"):
        identifiers = [case["id"] for case in cases if case["format"] == form]
        if not identifiers:
            continue
        taking_part = []
        notes = []
        for engine in READS[form]:
            if not runs[engine]:
                notes.append(f"{names[engine]}: no results")
                continue
            first = runs[engine][0]
            accepted = [i for i in identifiers if first.get(i, {}).get("accepted")]
            if accepted:
                taking_part.append(engine)
            else:
                errors = [first.get(i, {}).get("error") for i in identifiers]
                notes.append(f"{names[engine]}: accepts none of the {len(identifiers)} cases "
                             f"({next((e for e in errors if e), 'rejected')[:160]})")
        common = [i for i in identifiers if all(run.get(i, {}).get("accepted") for e in taking_part for run in runs[e])]
        print(f"### {FORMAT_NAMES[form]}: {len(identifiers)} cases, {len({grammar_of(i) for i in identifiers})} grammars; "
              f"timings over the {len(common)} cases ({len({grammar_of(i) for i in common})} grammars) that "
              + ", ".join(names[e] for e in taking_part) + " accept\n")
        for note in notes:
            print(f"- {note}")
        for engine in taking_part:
            refused = [i for i in identifiers if not runs[engine][0].get(i, {}).get("accepted")]
            if refused:
                print(f"- {names[engine]} rejects {len(refused)}: " + ", ".join(
                    f"{i} ({(runs[engine][0].get(i, {}).get('error') or 'at token ' + str(runs[engine][0].get(i, {}).get('reject_at')))[:80]})"
                    for i in refused))
        if notes or any(not runs[e][0].get(i, {}).get("accepted") for e in taking_part for i in identifiers):
            print()
        if not common:
            continue
        rows = {engine: median_over(runs[engine], common) for engine in taking_part}
        print("| engine | accepted | compile p50 ms | compile max ms | mask p50 µs | mask p99 µs | mask p99.9 µs | mask max µs"
              " | largest in every round µs | masks |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for engine in taking_part:
            accepted = sum(1 for i in identifiers if runs[engine][0].get(i, {}).get("accepted"))
            row = rows[engine]
            print(f"| {names[engine]} | {accepted} of {len(identifiers)} | {row[0]:.3f} | {row[1]:.3f} | {row[2]:.2f} | {row[3]:.2f} | "
                  f"{row[4]:.1f} | {row[5]:.1f} | {row[7]:.1f} | {int(row[6])} |")
        if "ours" in rows:
            # guided-bench counts the precomputation of slow masks in the compile (unless --lazy-masks).
            parsed = []
            for run in runs["ours"]:
                compiles = {}
                for identifier in common:
                    record = run[identifier]
                    compiles.setdefault(grammar_of(identifier), record["compile_ms"] - record.get("precompute_ms", 0))
                parsed.append((percentile(list(compiles.values()), 50), max(compiles.values())))
            print(f"\nGuidedGeneration's compile without its mask precomputation: p50 {statistics.median(p for p, _ in parsed):.3f} ms, "
                  f"max {statistics.median(m for _, m in parsed):.3f} ms")
        peers = [engine for engine in taking_part if engine != "ours"]
        if "ours" in rows and peers:
            labels = ["compile p50", "compile max", "mask p50", "mask p99", "mask p99.9", "mask max"]
            parts = []
            for column, label in list(enumerate(labels)) + [(7, "largest in every round")]:
                best = min(peers, key=lambda engine: rows[engine][column])
                parts.append(f"{label} {rows[best][column] / rows['ours'][column]:.2f}x ({names[best]})")
            print("\nfaster peer / GuidedGeneration (above 1: GuidedGeneration is faster): " + ", ".join(parts))
        print()
    if per_grammar:
        print("### Per grammar (median over rounds; over the samples each engine accepts)\n")
        print("| grammar | engine | accepted | compile ms | mask p50 µs | mask max µs | largest in every round µs |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        by_grammar = collections.OrderedDict()
        for case in cases:
            by_grammar.setdefault(grammar_of(case["id"]), []).append(case["id"])
        for grammar, members in by_grammar.items():
            form = next(case["format"] for case in cases if grammar_of(case["id"]) == grammar)
            for engine in READS[form]:
                if not runs[engine]:
                    continue
                accepted = [i for i in members if runs[engine][0].get(i, {}).get("accepted")]
                if not accepted:
                    print(f"| {grammar} | {names[engine]} | 0 of {len(members)} | | | | |")
                    continue
                row = median_over(runs[engine], accepted)
                print(f"| {grammar} | {names[engine]} | {len(accepted)} of {len(members)} | {row[0]:.3f} | {row[2]:.2f} | {row[5]:.1f} | {row[7]:.1f} |")


if __name__ == "__main__":
    main()
