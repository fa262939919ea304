#!/usr/bin/env python3
"""Sampled answers that stop by themselves: runs `guided generate` on a few everyday prompts
with seeds 1 to N under each sampling chain given, and counts the answers that end by themselves
(a complete value within the budget) and, for the recipe, the sensible ones (at least 3
ingredients and 3 steps). An answer still open at the budget, or stopped as a loop, does not
stop by itself.

usage: Benchmarks/scripts/sampled-answers.py [--seeds N] [--max-tokens N] [--model NAME]
           [--prompts recipe,korean-cat,korean-ideas] LABEL="guided generate options" ...
e.g.   Benchmarks/scripts/sampled-answers.py default="" llama.cpp="--top-k 40 --top-p 0.95
           --min-p 0.05 --temperature 0.8" preset="--preset small-model"
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CAT_SCHEMA = {
    "type": "object", "description": "Basic profile information about a cat",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer", "description": "The age of the cat", "minimum": 0, "maximum": 20},
        "profile": {"type": "string", "description": "A one sentence profile about the cat's personality"},
    },
    "required": ["name", "age", "profile"], "additionalProperties": False,
}
IDEAS_SCHEMA = {
    "type": "object", "description": "Trip ideas",
    "properties": {"ideas": {"type": "array", "description": "Ideas for trips", "items": {"type": "string"}}},
    "required": ["ideas"], "additionalProperties": False,
}


def prompts(folder):
    def written(name, schema):
        path = os.path.join(folder, name + ".json")
        with open(path, "w") as file:
            json.dump(schema, file)
        return path

    return {
        "recipe": (os.path.join(ROOT, "schemas/recipe.json"), "Give me a recipe for pancakes."),
        "korean-cat": (written("cat", CAT_SCHEMA), "보호소에 있는 고양이의 프로필을 만들어 주세요."),
        "korean-ideas": (written("ideas", IDEAS_SCHEMA), "가족을 위한 여행 아이디어를 몇 가지 추천해 주세요."),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chains", nargs="+", help='LABEL="options", e.g. preset="--preset small-model"')
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--max-tokens", type=int, default=768)
    parser.add_argument("--model", default=None)
    parser.add_argument("--prompts", default="recipe,korean-cat,korean-ideas")
    parser.add_argument("--guided", default=os.path.join(ROOT, ".build/release/guided"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cases = prompts(folder)
        print("| chain | prompt | stop by themselves | sensible recipes | median seconds |")
        print("| --- | --- | --- | --- | --- |")
        for chain in args.chains:
            label, _, options = chain.partition("=")
            for name in args.prompts.split(","):
                schema, prompt = cases[name]
                stopped, sensible, seconds = 0, 0, []
                for seed in range(1, args.seeds + 1):
                    command = [args.guided, "generate", "--schema", schema, "--seed", str(seed), "--max-tokens", str(args.max_tokens)]
                    command += (["--model", args.model] if args.model else []) + shlex.split(options) + [prompt]
                    start = time.monotonic()
                    run = subprocess.run(command, capture_output=True, text=True)
                    seconds.append(time.monotonic() - start)
                    lines = run.stdout.strip().splitlines()
                    value = None
                    if run.returncode == 0 and lines:
                        try:
                            value = json.loads(lines[-1])
                        except json.JSONDecodeError:
                            value = None
                    if value is not None:
                        stopped += 1
                        if name == "recipe" and len(value.get("ingredients", [])) >= 3 and len(value.get("steps", [])) >= 3:
                            sensible += 1
                    print(f"{label} {name} seed {seed}: {(lines[-1] if lines else run.stderr.strip()[-200:])[:200]}", file=sys.stderr)
                seconds.sort()
                recipes = f"{sensible} of {args.seeds}" if name == "recipe" else ""
                print(f"| {label} | {name} | {stopped} of {args.seeds} | {recipes} | {seconds[len(seconds) // 2]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
