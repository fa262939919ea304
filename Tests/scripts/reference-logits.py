#!/usr/bin/env python3
"""An independent reference for the Llama forward pass: numpy, with the weights dequantized by
the `gguf` package, and the KV cache in 16-bit floats as the library keeps it. Writes the fixture the Swift tests compare with: for each prompt (token ids),
the last-position logits (float32, little-endian) and a greedy continuation.

usage: reference-logits.py MODEL.gguf OUT_DIR   (needs `pip install numpy gguf`)
"""
import json
import os
import sys

import numpy as np
from gguf import GGUFReader
from gguf.quants import dequantize

PROMPTS = [
    [504, 3575, 282, 4649, 314],  # "The capital of France is"
    [1, 4093, 198, 19161, 30, 1883, 359, 346, 47, 2, 198, 1, 520, 9531, 198],  # a ChatML exchange
    [9, 12, 13, 14, 28, 29, 30, 31, 32, 33, 34, 35],  # punctuation and digits
]


def main():
    reader = GGUFReader(sys.argv[1])
    fields = {field.name: field for field in reader.fields.values()}

    def scalar(name):
        field = fields[name]
        return field.parts[field.data[0]][0]

    layers = int(scalar("llama.block_count"))
    heads = int(scalar("llama.attention.head_count"))
    kv_heads = int(scalar("llama.attention.head_count_kv"))
    width = int(scalar("llama.embedding_length"))
    eps = float(scalar("llama.attention.layer_norm_rms_epsilon"))
    base = float(scalar("llama.rope.freq_base"))
    head_dim = width // heads
    weights = {}
    for tensor in reader.tensors:
        values = dequantize(tensor.data, tensor.tensor_type).astype(np.float64)
        weights[tensor.name] = values.reshape([int(d) for d in reversed(tensor.shape)]) if values.ndim == 1 and len(tensor.shape) > 1 else values

    def norm(x, weight):
        return x / np.sqrt(np.mean(x * x) + eps) * weight

    frequencies = 1.0 / base ** (np.arange(0, head_dim, 2) / head_dim)

    def rope(x, position):
        x = x.reshape(-1, head_dim // 2, 2)
        angle = position * frequencies
        cos, sin = np.cos(angle)[None, :], np.sin(angle)[None, :]
        x0, x1 = x[..., 0].copy(), x[..., 1].copy()
        return np.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], axis=-1).reshape(-1)

    embeddings = weights["token_embd.weight"]
    output = weights.get("output.weight", embeddings)

    def run(tokens):
        keys = [[] for _ in range(layers)]
        values = [[] for _ in range(layers)]
        logits = None
        for position, token in enumerate(tokens):
            h = embeddings[token].copy()
            for layer in range(layers):
                p = f"blk.{layer}."
                x = norm(h, weights[p + "attn_norm.weight"])
                q = rope(weights[p + "attn_q.weight"] @ x, position)
                k = rope(weights[p + "attn_k.weight"] @ x, position)
                v = weights[p + "attn_v.weight"] @ x
                keys[layer].append(k.astype(np.float16).astype(np.float64))
                values[layer].append(v.astype(np.float16).astype(np.float64))
                K = np.stack(keys[layer]).reshape(len(keys[layer]), kv_heads, head_dim)
                V = np.stack(values[layer]).reshape(len(values[layer]), kv_heads, head_dim)
                out = np.zeros(width)
                for head in range(heads):
                    kv = head // (heads // kv_heads)
                    scores = K[:, kv, :] @ q[head * head_dim:(head + 1) * head_dim] / np.sqrt(head_dim)
                    scores = np.exp(scores - scores.max())
                    out[head * head_dim:(head + 1) * head_dim] = (scores / scores.sum()) @ V[:, kv, :]
                h = h + weights[p + "attn_output.weight"] @ out
                x = norm(h, weights[p + "ffn_norm.weight"])
                g = weights[p + "ffn_gate.weight"] @ x
                u = weights[p + "ffn_up.weight"] @ x
                h = h + weights[p + "ffn_down.weight"] @ (g / (1 + np.exp(-g)) * u)
            if position == len(tokens) - 1:
                logits = output @ norm(h, weights["output_norm.weight"])
        return logits

    os.makedirs(sys.argv[2], exist_ok=True)
    summary = []
    for index, prompt in enumerate(PROMPTS):
        logits = run(prompt)
        logits.astype("<f4").tofile(os.path.join(sys.argv[2], f"smollm2-logits-{index}.bin"))
        continuation = []
        tokens = list(prompt)
        for _ in range(8):
            next_token = int(np.argmax(run(tokens)))
            continuation.append(next_token)
            tokens.append(next_token)
        summary.append({"tokens": prompt, "top10": [int(i) for i in np.argsort(-logits)[:10]], "greedy": continuation})
        print(index, summary[-1])
    with open(os.path.join(sys.argv[2], "smollm2-reference.json"), "w") as handle:
        json.dump(summary, handle)


if __name__ == "__main__":
    main()
