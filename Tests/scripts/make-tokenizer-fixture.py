#!/usr/bin/env python3
"""Writes the tokenizer fixture: a corpus of varied strings with the token ids that Hugging Face
`tokenizers` (an independent implementation) gives them with SmolLM2's tokenizer, rebuilt from the
GGUF's vocabulary and merges with the pre-tokenizer SmolLM2 uses (digits split, then byte-level).

usage: make-tokenizer-fixture.py MODEL.gguf OUT.jsonl   (needs `pip install tokenizers`)
"""
import importlib.util
import json
import os
import random
import sys

from tokenizers import Tokenizer, decoders, models, pre_tokenizers

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("make_vocabulary", os.path.join(HERE, "../../Benchmarks/scripts/make-vocabulary.py"))
make_vocabulary = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_vocabulary)


def corpus(count):
    rng = random.Random(2024)
    words = ["the", "The", "quick", "brown", "fox", "don't", "I'm", "we'll", "they've", "you're", "it's", "naïve", "café",
             "über", "日本語", "中文", "Привет", "مرحبا", "😀", "🍳", "👩‍💻", "e\u0301", "ß", "İstanbul", "ﬁ", "x²", "½", "٣", "Ⅻ"]
    pieces = ["\n", "\n\n", "\t", "  ", "   ", " ", "\r\n", "{", "}", "[", "]", "\"", ":", ",", "\\", "'", "''", "--", "...",
              "->", "==", "!=", "<", ">", "<|im_start|>", "#", "@", "$", "%", "^", "&", "*", "(", ")", "_", "+", "=", "~", "`"]
    code = ["func f(x: Int) -> Int { return x * 2 }", "for i in range(10):\n    print(i)", "let a = [1, 2, 3]",
            "if (a && b) { c++; }", "SELECT * FROM t WHERE id = 42;", "<div class=\"a\">text</div>"]
    samples = [
        "", " ", "a", "Hello world", "Hello  world", "  leading", "trailing  ", "\n\nword", "a 123 b", "3.14159",
        "1,000,000", "2024-11-29T13:42:00Z", "{\"title\": \"A story of\"}", '{"a":1,"b":[true,false,null]}',
        "It's a dog's life, isn't it?", "tab\tseparated\tvalues", "line1\nline2\r\nline3", "   \n   ",
    ]
    while len(samples) < count:
        kind = rng.randrange(5)
        if kind == 0:
            samples.append(" ".join(rng.choice(words) for _ in range(rng.randrange(1, 12))))
        elif kind == 1:
            samples.append("".join(rng.choice(words + pieces) for _ in range(rng.randrange(1, 20))))
        elif kind == 2:
            samples.append(rng.choice(code) + rng.choice(["", " ", "\n"]) + rng.choice(code))
        elif kind == 3:
            value = {"n": rng.randrange(-10**6, 10**6), "x": round(rng.uniform(-1000, 1000), rng.randrange(0, 6)),
                     "s": " ".join(rng.choice(words) for _ in range(rng.randrange(0, 6))), "l": [rng.randrange(100) for _ in range(rng.randrange(0, 5))]}
            samples.append(json.dumps(value, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 2])))
        else:
            samples.append("".join(chr(rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0xA0, 0x3000), rng.randrange(0x1F300, 0x1F600), 0x20, 0x0A, 0x30 + rng.randrange(10)])) for _ in range(rng.randrange(1, 40))))
    return samples


def main():
    metadata = make_vocabulary.read_metadata(sys.argv[1])
    vocabulary = {token: index for index, token in enumerate(metadata["tokenizer.ggml.tokens"])}
    merges = [tuple(merge.split(" ", 1)) for merge in metadata["tokenizer.ggml.merges"]]
    tokenizer = Tokenizer(models.BPE(vocab=vocabulary, merges=merges))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)])
    tokenizer.decoder = decoders.ByteLevel()
    with open(sys.argv[2], "w") as out:
        for text in corpus(2200):
            out.write(json.dumps({"text": text, "ids": tokenizer.encode(text).ids}, ensure_ascii=False) + "\n")
    print(f"{sys.argv[2]}: 2200 strings")


if __name__ == "__main__":
    main()
