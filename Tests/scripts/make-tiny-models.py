#!/usr/bin/env python3
"""Tiny GGUF files with random weights, one per architecture, one for Llama 3's RoPE frequency
factors and one for Phi-3's long-context RoPE factors (the tensor names and metadata of real files of that architecture, two layers, width 256), their weights spread over every weight
type the kernels compute with; one per weight type (`llama`, one layer, every matrix, the
embeddings and the output of that type: name `type-q4_k` and so on); and llama.cpp's
answers on them: per prompt (token ids), the 16 tokens of its greedy continuation, each with its
10 most likely tokens and their log probabilities. Writes OUT_DIR/tiny-NAME.gguf and
OUT_DIR/tiny-NAME-reference.json (and, for phi3-longrope, tiny-phi3-longrope-long-reference.json
at a context of 512); then LoRA adapters of the llama and phi3 files, OUT_DIR/tiny-NAME-lora.gguf
(names llama-lora and phi3-lora), with llama.cpp's continuations with the adapter applied.

usage: make-tiny-models.py OUT_DIR LLAMA_SERVER [NAME...]   (needs `pip install numpy gguf`;
       the names given, or every file)
"""
import json
import os
import subprocess
import sys
import time
import urllib.request

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf import GGUFWriter
from gguf.constants import GGML_QUANT_SIZES

WIDTH, LAYERS, HEADS, KV_HEADS, HEAD, FFN, VOCAB = 256, 2, 4, 2, 64, 512, 384
# Where each type keeps its half-precision scales (byte offsets in a block).
HALF_OFFSETS = {
    T.Q4_0: [0], T.Q4_1: [0, 2], T.Q5_0: [0], T.Q5_1: [0, 2], T.Q8_0: [0], T.IQ4_NL: [0],
    T.Q2_K: [80, 82], T.Q3_K: [108], T.Q4_K: [0, 2], T.Q5_K: [0, 2], T.Q6_K: [208],
}
# The types of each layer's matrices: between the two layers, every type.
LAYER_TYPES = [
    {"attn_q": T.Q4_K, "attn_k": T.Q5_K, "attn_v": T.Q6_K, "attn_output": T.Q5_0, "ffn_gate": T.Q5_1, "ffn_up": T.IQ4_NL, "ffn_down": T.Q3_K},
    {"attn_q": T.Q2_K, "attn_k": T.Q4_0, "attn_v": T.Q4_1, "attn_output": T.Q8_0, "ffn_gate": T.BF16, "ffn_up": T.F16, "ffn_down": T.Q6_K},
]
PROMPTS = [[1, 40, 41, 42, 43, 44, 45, 46], [1, 300, 12, 7, 250, 99]]
# The weight types of the files of one type each, and the width of their feed-forward layer.
SINGLE_TYPES = [T.Q4_0, T.Q4_1, T.Q5_0, T.Q5_1, T.Q8_0, T.IQ4_NL, T.Q2_K, T.Q3_K, T.Q4_K, T.Q5_K, T.Q6_K, T.BF16]
SINGLE_FFN = 256


# How far each type's random codes spread (their standard deviation, times the sub-block scales
# for the K-quants), so that every matrix's weights spread alike.
CODE_SPREAD = {
    T.Q4_0: 4.6, T.Q4_1: 4.6, T.Q5_0: 9.2, T.Q5_1: 9.2, T.Q8_0: 74, T.IQ4_NL: 70,
    T.Q2_K: 7.5 * 1.1, T.Q3_K: 18 * 2.3, T.Q4_K: 32 * 4.6, T.Q5_K: 32 * 9.2, T.Q6_K: 74 * 18.5,
}


# For `centered` weights: each block's minimum as a multiple of its scale (Q4_1's and Q5_1's are
# added, the K-quants' subtracted times their 6-bit or 4-bit minimums), so that a block's weights
# average about zero.
CENTERS = {T.Q4_1: -7.5, T.Q5_1: -15.5, T.Q2_K: 1.5, T.Q4_K: 7.5, T.Q5_K: 15.5}


def matrix(rng, rows, columns, qtype, spread, centered=False):
    """Random weights of `qtype` whose standard deviation is about `spread`; `centered`, with
    minimums that keep their average about zero (else a file whose every matrix has minimums
    chooses one token whatever the prompt)."""
    if qtype in (T.F16, T.BF16, T.F32):
        values = rng.normal(0, spread, size=(rows, columns)).astype(np.float32)
        if qtype == T.F32:
            return values, None
        if qtype == T.F16:
            return values.astype(np.float16), None
        return (values.view(np.uint32) >> 16).astype(np.uint16).view(np.uint8).reshape(rows, columns * 2), T.BF16
    block, size = GGML_QUANT_SIZES[qtype]
    raw = rng.integers(0, 256, size=(rows * columns // block, size), dtype=np.uint8)
    for offset in HALF_OFFSETS[qtype]:
        scale = rng.uniform(0.5, 1.5, size=(raw.shape[0], 1)) * spread / CODE_SPREAD[qtype] * (-1 if offset == 2 else 1)
        raw[:, offset:offset + 2] = scale.astype(np.float16).view(np.uint8)
    if centered and qtype in CENTERS:
        first, minimum = HALF_OFFSETS[qtype]
        scale = raw[:, first:first + 2].copy().view(np.float16).astype(np.float32)
        raw[:, minimum:minimum + 2] = (scale * CENTERS[qtype]).astype(np.float16).view(np.uint8)
    return raw.reshape(rows, -1), qtype


def write_model(path, name, arch, rng, single=None):
    """Writes the file; with `single`, a weight type, one layer whose matrices and embeddings are
    all of that type."""
    layers, ffn = (1, SINGLE_FFN) if single is not None else (LAYERS, FFN)
    writer = GGUFWriter(path, arch)
    writer.add_name(f"tiny {name}")
    # Phi-3's long-context RoPE: trained at 256 positions, extended to 512.
    writer.add_context_length(512 if name == "phi3-longrope" else 256)
    if name == "phi3-longrope":
        writer.add_uint32("phi3.rope.scaling.original_context_length", 256)
        writer.add_float32("phi3.rope.scaling.attn_factor", 2.0)
    writer.add_embedding_length(WIDTH)
    writer.add_block_count(layers)
    writer.add_feed_forward_length(ffn)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(KV_HEADS)
    writer.add_key_length(HEAD)
    writer.add_value_length(HEAD)
    writer.add_rope_freq_base(10000.0)
    writer.add_layer_norm_rms_eps(1e-6)
    if arch == "gemma3":
        writer.add_sliding_window(4)
    # A SentencePiece vocabulary: control tokens, the byte tokens of ASCII, then pieces; every
    # token is whole UTF-8 text, so that llama-server reports every step of a continuation.
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(128)]
    # llama.cpp looks Phi-3's turn tokens up by their text.
    control = ["<|endoftext|>", "<|assistant|>", "<|end|>", "<|user|>", "<|system|>"] if arch == "phi3" else []
    tokens += control
    pieces = VOCAB - len(tokens)
    tokens += [f"\u2581p{i}" for i in range(pieces)]
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * (131 + len(control)) + [-float(i) for i in range(pieces)])
    writer.add_token_types([2, 3, 3] + [6] * 128 + [3] * len(control) + [1] * pieces)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)

    def norm(name, count):
        writer.add_tensor(name, rng.uniform(0.8, 1.2, size=count).astype(np.float32))

    # Gemma's output is its embeddings: small ones, lest a token's own logit swamp the others.
    # A file of one type has its embeddings and output of that type.
    embeddings, qtype = matrix(rng, VOCAB, WIDTH, single or T.F32, 0.02 if arch == "gemma3" else 0.1, centered=single is not None)
    writer.add_tensor("token_embd.weight", embeddings, raw_dtype=qtype)
    norm("output_norm.weight", WIDTH)
    if arch != "gemma3":
        output, qtype = matrix(rng, VOCAB, WIDTH, single or T.Q8_0, 0.05, centered=single is not None)
        writer.add_tensor("output.weight", output, raw_dtype=qtype)
    if name == "phi3-longrope":
        # A factor per frequency, which divides it: the short ones up to the original length.
        writer.add_tensor("rope_factors_short.weight", rng.uniform(1, 1.5, size=HEAD // 2).astype(np.float32))
        writer.add_tensor("rope_factors_long.weight", rng.uniform(1, 16, size=HEAD // 2).astype(np.float32))
    if name == "llama3":
        # Llama 3.1's RoPE frequency scaling: a factor per frequency, which divides it.
        writer.add_tensor("rope_freqs.weight", rng.uniform(1, 8, size=HEAD // 2).astype(np.float32))
    for layer in range(layers):
        p = f"blk.{layer}."
        shapes = {"attn_q": (HEADS * HEAD, WIDTH), "attn_k": (KV_HEADS * HEAD, WIDTH), "attn_v": (KV_HEADS * HEAD, WIDTH),
                  "attn_output": (WIDTH, HEADS * HEAD), "ffn_gate": (ffn, WIDTH), "ffn_up": (ffn, WIDTH), "ffn_down": (WIDTH, ffn)}
        types = LAYER_TYPES[layer] if single is None else {tensor: single for tensor in shapes}
        norm(p + "attn_norm.weight", WIDTH)
        norm(p + "ffn_norm.weight", WIDTH)
        if arch == "phi3":
            # Phi-3's fused projections: Q, K and V in one tensor, the gate then up in another.
            shapes = {"attn_qkv": ((HEADS + 2 * KV_HEADS) * HEAD, WIDTH), "attn_output": shapes["attn_output"],
                      "ffn_up": (2 * ffn, WIDTH), "ffn_down": shapes["ffn_down"]}
            types = dict(types, attn_qkv=types["attn_q"])
        for tensor, (rows, columns) in shapes.items():
            values, qtype = matrix(rng, rows, columns, types[tensor], 0.05, centered=single is not None)
            writer.add_tensor(p + tensor + ".weight", values, raw_dtype=qtype)
        if arch == "qwen2":
            for tensor, count in (("attn_q", HEADS * HEAD), ("attn_k", KV_HEADS * HEAD), ("attn_v", KV_HEADS * HEAD)):
                writer.add_tensor(p + tensor + ".bias", rng.normal(0, 0.2, size=count).astype(np.float32))
        if arch in ("qwen3", "gemma3"):
            norm(p + "attn_q_norm.weight", HEAD)
            norm(p + "attn_k_norm.weight", HEAD)
        if arch == "gemma3":
            norm(p + "post_attention_norm.weight", WIDTH)
            norm(p + "post_ffw_norm.weight", WIDTH)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def write_adapter(path, base, arch, rng, rank=4, alpha=8.0):
    """A LoRA adapter for the file `base`, as llama.cpp's `--lora` reads it: for every matrix of
    every layer and the output, `NAME.lora_a` (RANK x columns, F32) and `NAME.lora_b` (rows x
    RANK, F16), scaled by alpha / rank."""
    from gguf import GGUFReader
    reader = GGUFReader(base)
    writer = GGUFWriter(path, arch)
    writer.add_string("general.type", "adapter")
    writer.add_string("adapter.type", "lora")
    writer.add_float32("adapter.lora.alpha", alpha)
    for tensor in reader.tensors:
        if not tensor.name.endswith(".weight") or tensor.name == "token_embd.weight" or "norm" in tensor.name or len(tensor.shape) != 2:
            continue
        columns, rows = int(tensor.shape[0]), int(tensor.shape[1])
        stem = tensor.name
        writer.add_tensor(stem + ".lora_a", rng.normal(0, 0.1, size=(rank, columns)).astype(np.float32))
        writer.add_tensor(stem + ".lora_b", rng.normal(0, 0.1, size=(rows, rank)).astype(np.float16))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def post(port, path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def reference(server, path, port, context=256, adapter=None):
    extra = ["--lora", adapter] if adapter else []
    process = subprocess.Popen([server, "-m", path, "--port", str(port), "-t", "2", "-c", str(context)] + extra,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health") as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        results = []
        for prompt in PROMPTS:
            answer = post(port, "/completion", {"prompt": prompt, "n_predict": 16, "temperature": 0, "n_probs": 10,
                                                "cache_prompt": False, "ignore_eos": True, "return_tokens": True})
            steps = [{"token": step["id"], "top": [[entry["id"], entry["logprob"]] for entry in step["top_logprobs"]]}
                     for step in answer["completion_probabilities"]]
            assert [step["token"] for step in steps] == answer["tokens"] and len(steps) == 16, "a step is missing"
            results.append({"tokens": prompt, "steps": steps})
        return results
    finally:
        process.terminate()
        process.wait()


def main():
    out, server, only = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    # (file name, architecture): Llama 3 is `llama` with RoPE frequency factors; phi3-longrope is
    # Phi-3 with long-context RoPE factors, compared at a context of 256 (its short factors) and
    # of 512 (its long ones).
    models = [("llama", "llama", None), ("qwen2", "qwen2", None), ("qwen3", "qwen3", None), ("gemma3", "gemma3", None),
              ("phi3", "phi3", None), ("llama3", "llama", None), ("phi3-longrope", "phi3", None)]
    models += [(f"type-{qtype.name.lower()}", "llama", qtype) for qtype in SINGLE_TYPES]
    for index, (name, arch, single) in enumerate(models):
        if only and name not in only:
            continue
        path = os.path.join(out, f"tiny-{name}.gguf")
        write_model(path, name, arch, np.random.default_rng(100 + index), single)
        contexts = [("", 256), ("-long", 512)] if name == "phi3-longrope" else [("", 256)]
        for suffix, context in contexts:
            with open(os.path.join(out, f"tiny-{name}{suffix}-reference.json"), "w") as output:
                json.dump(reference(server, path, 18700 + index, context), output)
                output.write("\n")
        print(name, os.path.getsize(path))
    # LoRA adapters of two of the files (Phi-3's over its fused projections), and llama.cpp's
    # continuations with each applied (`--lora`).
    for index, (name, arch) in enumerate([("llama", "llama"), ("phi3", "phi3")]):
        if only and f"{name}-lora" not in only:
            continue
        base, path = os.path.join(out, f"tiny-{name}.gguf"), os.path.join(out, f"tiny-{name}-lora.gguf")
        write_adapter(path, base, arch, np.random.default_rng(200 + index))
        with open(os.path.join(out, f"tiny-{name}-lora-reference.json"), "w") as output:
            json.dump(reference(server, base, 18800 + index, adapter=path), output)
            output.write("\n")
        print(f"{name}-lora", os.path.getsize(path))


if __name__ == "__main__":
    main()
