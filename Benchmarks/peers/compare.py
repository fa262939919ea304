#!/usr/bin/env python3
"""Prints the mask benchmark's figures side by side, with ratios to the faster peer.

usage: compare.py OURS.jsonl XGRAMMAR.jsonl LLGUIDANCE.jsonl

Compile and mask percentiles are over the cases all three engines compiled and accepted, so
that every engine is timed on the same work; the counts are over every case. "> 1 ms" counts the
masks above a millisecond, over those cases and over every mask the engine computed.
"""
import json
import sys


def load(path):
    return {record["id"]: record for record in map(json.loads, open(path))}


def percentile(values, percent):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(percent / 100 * (len(ordered) - 1))))]


def main():
    names = ["GuidedGeneration", "XGrammar", "llguidance"]
    runs = [load(path) for path in sys.argv[1:4]]
    common = [identifier for identifier in runs[0] if all(run.get(identifier, {}).get("accepted") for run in runs)]
    rows = []
    for name, run in zip(names, runs):
        compiled = sum(1 for r in run.values() if "error" not in r or r.get("mask_us"))
        accepted = sum(1 for r in run.values() if r.get("accepted"))
        compile_ms = [run[i]["compile_ms"] for i in common]
        masks = [t for i in common for t in run[i]["mask_us"]]
        rows.append((name, len(run), compiled, accepted, percentile(compile_ms, 50), percentile(compile_ms, 99),
                     percentile(masks, 50), percentile(masks, 99), percentile(masks, 99.9), max(masks) if masks else float("nan"),
                     sum(1 for t in masks if t > 1000), sum(1 for r in run.values() for t in r.get("mask_us") or [] if t > 1000)))
    print(f"{len(runs[0])} cases; timings over the {len(common)} cases all three accept "
          f"({sum(len(runs[0][i]['mask_us']) for i in common)} masks each)\n")
    print("| engine | cases | compiled | accepted | compile p50 ms | compile p99 ms | mask p50 µs | mask p99 µs | mask p99.9 µs"
          " | mask max µs | > 1 ms | > 1 ms, all its masks |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print("| {} | {} | {} | {} | {:.3f} | {:.3f} | {:.2f} | {:.2f} | {:.1f} | {:.1f} | {} | {} |".format(*row))
    ours = rows[0]
    print()
    for peer in rows[1:]:
        print(f"vs {peer[0]}: compile p50 {peer[4] / ours[4]:.2f}x, compile p99 {peer[5] / ours[5]:.2f}x, "
              f"mask p50 {peer[6] / ours[6]:.2f}x, mask p99 {peer[7] / ours[7]:.2f}x, mask p99.9 {peer[8] / ours[8]:.2f}x, "
              f"mask max {peer[9] / ours[9]:.2f}x "
              f"(above 1: GuidedGeneration is faster)")


if __name__ == "__main__":
    main()
