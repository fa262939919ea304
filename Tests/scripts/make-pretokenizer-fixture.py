#!/usr/bin/env python3
"""How Hugging Face `tokenizers` (an implementation independent of this library's) splits text
before byte-level BPE, for the pre-tokenizers that GGUF files name (`tokenizer.ggml.pre`): for
each string of smollm2-tokenizer.jsonl, in order, the lengths (in Unicode scalars) of its pieces
under GPT-2's pattern (`gpt2`), Llama 3's (`llama-bpe`) and Qwen 2's (`qwen2`).
Writes Tests/Fixtures/pretokenizer-pieces.jsonl.

usage: make-pretokenizer-fixture.py Tests/Fixtures   (needs `pip install tokenizers`)
"""
import json
import os
import sys

from tokenizers import Regex, pre_tokenizers

PATTERNS = {
    "gpt2": r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
    "llama-bpe": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    "qwen2": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
}


def main():
    folder = sys.argv[1]
    splitters = {name: pre_tokenizers.Split(Regex(pattern), behavior="isolated") for name, pattern in PATTERNS.items()}
    with open(os.path.join(folder, "smollm2-tokenizer.jsonl")) as source, \
            open(os.path.join(folder, "pretokenizer-pieces.jsonl"), "w") as output:
        for line in source:
            text = json.loads(line)["text"]
            entry = {}
            for name, splitter in splitters.items():
                entry[name] = [end - start for _, (start, end) in splitter.pre_tokenize_str(text)]
            output.write(json.dumps(entry) + "\n")


if __name__ == "__main__":
    main()
