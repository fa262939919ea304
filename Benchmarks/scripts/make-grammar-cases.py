#!/usr/bin/env python3
"""Writes the grammar cases of the mask benchmark: each a grammar (GBNF or Lark text), a sample
text the grammar accepts, and the sample's tokens, for `guided-bench masks` and
`Benchmarks/peers/run_peers.py`, which walk the masks along the sample as they walk a JSON
instance along its schema.

usage: make-grammar-cases.py VOCAB.json OUT.jsonl [--samples FILE] [--llama-grammars DIR]

The samples come from Benchmarks/cases/grammar-samples.jsonl (or --samples), one a line:
{"grammar": NAME, "sample": TEXT}. NAME is "llama.cpp/FILE.gbnf", one of llama.cpp's example
grammars, read from DIR (--llama-grammars, else $LLAMA_CPP_GRAMMARS, else
$GUIDED_CACHE/llama-server-0.3.36/grammars, $GUIDED_CACHE defaulting to ~/.cache/guided: where
scripts/build-llama-server.sh keeps them; they are not kept in this repository), or "FILE.lark",
a Lark grammar of Benchmarks/cases/grammars. Each case is {"id": "NAME#N", "format": "gbnf" or
"lark", "grammar", "sample", "tokens"}, the samples of one grammar one after the other, so that
they share its compile. Tokens come from the greedy longest match of make-cases.py.
"""
import argparse
import collections
import importlib.util
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def llama_grammars_folder():
    if os.environ.get("LLAMA_CPP_GRAMMARS"):
        return os.environ["LLAMA_CPP_GRAMMARS"]
    cache = os.environ.get("GUIDED_CACHE") or os.path.expanduser("~/.cache/guided")
    return os.path.join(cache, "llama-server-0.3.36", "grammars")


def load_tokenizer(vocabulary_path):
    path = os.path.join(ROOT, "Benchmarks", "scripts", "make-cases.py")
    spec = importlib.util.spec_from_file_location("make_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Tokenizer(json.load(open(vocabulary_path)))


def grammar_text(name, llama_folder):
    """(format, text) of a grammar named as in the samples file."""
    if name.startswith("llama.cpp/"):
        path = os.path.join(llama_folder, name[len("llama.cpp/"):])
        if not os.path.exists(path):
            raise SystemExit(f"{path} is missing: pass --llama-grammars DIR, the grammars folder of llama.cpp "
                             "(vendor/llama.cpp/grammars in PyPI's llama-cpp-python 0.3.36 sdist)")
    else:
        path = os.path.join(ROOT, "Benchmarks", "cases", "grammars", name)
    form = {".gbnf": "gbnf", ".lark": "lark"}.get(os.path.splitext(name)[1])
    if form is None:
        raise SystemExit(f"{name}: a grammar's name ends in .gbnf or .lark")
    with open(path, encoding="utf-8") as handle:
        return form, handle.read()


def main():
    parser = argparse.ArgumentParser(description="Writes the mask benchmark's grammar cases.")
    parser.add_argument("vocab", help="vocabulary file from make-vocabulary.py")
    parser.add_argument("out", help="cases file to write (JSON lines)")
    parser.add_argument("--samples", default=os.path.join(ROOT, "Benchmarks", "cases", "grammar-samples.jsonl"))
    parser.add_argument("--llama-grammars", metavar="DIR", default=llama_grammars_folder(),
                        help="the grammars folder of llama.cpp")
    arguments = parser.parse_args()
    tokenizer = load_tokenizer(arguments.vocab)
    samples = collections.OrderedDict()  # grammar name -> its samples, in the file's order
    with open(arguments.samples, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                entry = json.loads(line)
                samples.setdefault(entry["grammar"], []).append(entry["sample"])
    written = 0
    with open(arguments.out, "w") as out:
        for name, texts in samples.items():
            form, text = grammar_text(name, arguments.llama_grammars)
            for index, sample in enumerate(texts):
                record = {"id": f"{name}#{index}", "format": form, "grammar": text, "sample": sample,
                          "tokens": tokenizer.encode(sample)}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                written += 1
    print(f"{arguments.out}: {written} cases, {len(samples)} grammars")


if __name__ == "__main__":
    main()
