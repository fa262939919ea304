#!/usr/bin/env python3
"""llama.cpp's answers for Gemma 3 270M (Q4_K_M), the reference the Gemma tests compare with, from
a llama-server running that file (`llama-server -m gemma-3-270m-q4_k_m.gguf --port PORT -t 2`):

- gemma3-tokenizer.jsonl: the ids llama.cpp gives the strings of smollm2-tokenizer.jsonl and some
  more (code, CJK, emoji, runs of spaces and newlines, markup), special tokens read as text;
- gemma3-reference.json: per prompt, its tokens (with the BOS llama.cpp adds) and the 16 tokens of
  llama.cpp's greedy continuation, each with llama.cpp's 10 most likely tokens and their log
  probabilities at that step.

usage: make-gemma-fixture.py http://127.0.0.1:PORT Tests/Fixtures [NAME]   (Python standard library only)

NAME replaces gemma3-reference.json: gemma3-reference-scalar.json is written from a llama-server
built without vector instructions (as scripts/build-llama-server.sh builds it, but with
-DGGML_NATIVE=OFF -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_BMI2=OFF
-DGGML_SSE42=OFF -DGGML_AVX512=OFF -DGGML_LLAMAFILE=OFF), the reference of the portable kernels.
"""
import json
import os
import sys
import urllib.request

EXTRA = [
    "func fibonacci(_ n: Int) -> Int {\n    n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2)\n}",
    "def f(x):\n\treturn {'a': [1, 2, 3], \"b\": None}\n\n\n",
    "東京は日本の首都です。北京是中国的首都。서울은 한국의 수도입니다.",
    "Emoji: 👋🏽 🎉🎉 👨‍👩‍👧‍👦 🇯🇵 ✨",
    "   leading spaces, two  spaces,     five, and trailing   ",
    "<table><tr><td>cell</td></tr></table> <b>bold</b> <start_of_turn> <eos>",
    "{\"name\":\"Ada\",\"age\":36,\"tags\":[\"x\",\"y\"],\"nested\":{\"k\":null}}",
    "naïve café résumé — “quotes” ‘single’ … ½ ° ™",
    "\x00\x01 control \x7f characters \u2028 separators",
]

PROMPTS = [
    "The capital of France is",
    "Once upon a time, there was a little",
    "def fibonacci(n):",
    "A recipe for pancakes: {\"title\": \"",
]


def post(server, path, body):
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def main():
    server, out = sys.argv[1], sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else "gemma3-reference.json"
    texts = [json.loads(line)["text"] for line in open(os.path.join(out, "smollm2-tokenizer.jsonl"))] + EXTRA
    with open(os.path.join(out, "gemma3-tokenizer.jsonl"), "w") as output:
        for text in texts:
            ids = post(server, "/tokenize", {"content": text, "add_special": False, "parse_special": False})["tokens"]
            output.write(json.dumps({"text": text, "ids": ids}, ensure_ascii=False) + "\n")
    references = []
    for prompt in PROMPTS:
        tokens = post(server, "/tokenize", {"content": prompt, "add_special": True, "parse_special": False})["tokens"]
        answer = post(server, "/completion", {
            "prompt": tokens, "n_predict": 16, "temperature": 0, "n_probs": 10, "return_tokens": True, "cache_prompt": False,
        })
        steps = [{"token": step["id"], "top": [[entry["id"], entry["logprob"]] for entry in step["top_logprobs"]]}
                 for step in answer["completion_probabilities"]]
        references.append({"text": prompt, "tokens": tokens, "steps": steps})
    with open(os.path.join(out, name), "w") as output:
        json.dump(references, output)
        output.write("\n")


if __name__ == "__main__":
    main()
