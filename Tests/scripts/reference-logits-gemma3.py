#!/usr/bin/env python3
"""An independent reference for the Gemma 3 forward pass: numpy in float64, with the weights
dequantized by the `gguf` package, written from the Gemma 3 architecture as llama.cpp runs it
(embeddings scaled by the square root of the width, RMS norms before and after attention and the
feed-forward network, per-head query and key norms, rotation of each element with the one half a
head away, five sliding-window layers with RoPE base 10,000 then a global one, GELU-tanh gating), with
the KV cache in 16-bit floats as the library keeps it.
Writes gemma3-float-reference.json: per prompt (token ids), the 20 largest last-position logits.

usage: reference-logits-gemma3.py gemma-3-270m-q4_k_m.gguf OUT_DIR   (needs `pip install numpy gguf`)
"""
import json
import os
import sys

import numpy as np
from gguf import GGUFReader
from gguf.quants import dequantize

PROMPTS = [
    [2, 818, 5279, 529, 7001, 563],  # "The capital of France is"
    [2, 2063, 10779, 78113, 236769, 236749, 1473],  # "def fibonacci(n):"
]


def main():
    reader = GGUFReader(sys.argv[1])
    fields = {field.name: field for field in reader.fields.values()}

    def scalar(name):
        field = fields[name]
        return field.parts[field.data[0]][0]

    layers = int(scalar("gemma3.block_count"))
    heads = int(scalar("gemma3.attention.head_count"))
    kv_heads = int(scalar("gemma3.attention.head_count_kv"))
    width = int(scalar("gemma3.embedding_length"))
    head_dim = int(scalar("gemma3.attention.key_length"))
    eps = float(scalar("gemma3.attention.layer_norm_rms_epsilon"))
    window = int(scalar("gemma3.attention.sliding_window"))
    global_base = float(scalar("gemma3.rope.freq_base"))
    weights = {}
    for tensor in reader.tensors:
        values = dequantize(tensor.data, tensor.tensor_type).astype(np.float64)
        weights[tensor.name] = values.reshape([int(d) for d in reversed(tensor.shape)]) if len(tensor.shape) > 1 else values.reshape(-1)

    def norm(x, weight):
        return x / np.sqrt(np.mean(x * x) + eps) * weight

    def rope(x, position, base):
        x = x.reshape(-1, head_dim)
        half = head_dim // 2
        angle = position / base ** (np.arange(half) * 2 / head_dim)
        cos, sin = np.cos(angle)[None, :], np.sin(angle)[None, :]
        x0, x1 = x[:, :half].copy(), x[:, half:].copy()
        return np.concatenate([x0 * cos - x1 * sin, x0 * sin + x1 * cos], axis=1).reshape(-1)

    def gelu(x):
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))

    embeddings = weights["token_embd.weight"]
    output = weights.get("output.weight", embeddings)

    def run(tokens):
        keys = [[] for _ in range(layers)]
        values = [[] for _ in range(layers)]
        logits = None
        for position, token in enumerate(tokens):
            h = embeddings[token] * np.sqrt(width)
            for layer in range(layers):
                p = f"blk.{layer}."
                sliding = layer % 6 < 5
                base = 10000.0 if sliding else global_base
                x = norm(h, weights[p + "attn_norm.weight"])
                q = (weights[p + "attn_q.weight"] @ x).reshape(heads, head_dim)
                k = (weights[p + "attn_k.weight"] @ x).reshape(kv_heads, head_dim)
                v = weights[p + "attn_v.weight"] @ x
                q = rope(np.stack([norm(row, weights[p + "attn_q_norm.weight"]) for row in q]), position, base)
                k = rope(np.stack([norm(row, weights[p + "attn_k_norm.weight"]) for row in k]), position, base)
                keys[layer].append(k.astype(np.float16).astype(np.float64))
                values[layer].append(v.astype(np.float16).astype(np.float64))
                first = max(0, position - window + 1) if sliding else 0
                K = np.stack(keys[layer][first:]).reshape(-1, kv_heads, head_dim)
                V = np.stack(values[layer][first:]).reshape(-1, kv_heads, head_dim)
                out = np.zeros(heads * head_dim)
                for head in range(heads):
                    kv = head // (heads // kv_heads)
                    scores = K[:, kv, :] @ q[head * head_dim:(head + 1) * head_dim] / np.sqrt(head_dim)
                    scores = np.exp(scores - scores.max())
                    out[head * head_dim:(head + 1) * head_dim] = (scores / scores.sum()) @ V[:, kv, :]
                h = h + norm(weights[p + "attn_output.weight"] @ out, weights[p + "post_attention_norm.weight"])
                x = norm(h, weights[p + "ffn_norm.weight"])
                g = weights[p + "ffn_gate.weight"] @ x
                u = weights[p + "ffn_up.weight"] @ x
                h = h + norm(weights[p + "ffn_down.weight"] @ (gelu(g) * u), weights[p + "post_ffw_norm.weight"])
            if position == len(tokens) - 1:
                logits = output @ norm(h, weights["output_norm.weight"])
        return logits

    summary = []
    for prompt in PROMPTS:
        logits = run(prompt)
        top = np.argsort(-logits)[:20]
        summary.append({"tokens": prompt, "top": [[int(i), float(logits[i])] for i in top]})
        print(summary[-1]["top"][:5])
    with open(os.path.join(sys.argv[2], "gemma3-float-reference.json"), "w") as handle:
        json.dump(summary, handle)
        handle.write("\n")


if __name__ == "__main__":
    main()
