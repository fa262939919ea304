#!/usr/bin/env python3
"""Writes a GGUF file with the shape of a real 1B-8B model and random weights, for speed
measurements at realistic sizes without a download. Standard library only.

usage: make-random-model.py SHAPE TYPE VOCAB_SOURCE.gguf OUT.gguf
  SHAPE: llama-1b, llama-3b, llama-8b (Llama 3.2 1B and 3B, Llama 3.1 8B), qwen2-1.5b, qwen2-3b,
         qwen2-7b (Qwen 2.5).
  TYPE:  q4_k_m (as llama.cpp's quantize writes it: Q6_K for the output matrix, and for attn_v and
         ffn_down in the layers llama.cpp gives more bits; Q4_K elsewhere) or q8_0.
  VOCAB_SOURCE.gguf: a byte-level BPE model with no more tokens than the shape's vocabulary
         (SmolLM2) whose tokens and merges are copied, padded with unused tokens to its size.

The weights are random codes under small scales, repeated from one buffer: the arithmetic is that
of a real file of the shape (every byte of every matrix is read), the answers are noise.
"""
import importlib.util
import os
import random
import struct
import sys

# name: (architecture, layers, width, heads, kv heads, feed-forward, vocabulary, tied output)
SHAPES = {
    "llama-1b": ("llama", 16, 2048, 32, 8, 8192, 128256, True),
    "llama-3b": ("llama", 28, 3072, 24, 8, 8192, 128256, True),
    "llama-8b": ("llama", 32, 4096, 32, 8, 14336, 128256, False),
    "qwen2-1.5b": ("qwen2", 28, 1536, 12, 2, 8960, 151936, True),
    "qwen2-3b": ("qwen2", 36, 2048, 16, 2, 11008, 151936, True),
    "qwen2-7b": ("qwen2", 28, 3584, 28, 4, 18944, 152064, False),
}
F32, Q8_0, Q4_K, Q6_K = 0, 8, 12, 14
BLOCK = {Q8_0: (32, 34), Q4_K: (256, 144), Q6_K: (256, 210)}
FILE_TYPE = {"q8_0": 7, "q4_k_m": 15}
ALIGNMENT = 32


def read_vocabulary(path):
    """The tokens, token types and merges of a GGUF file's byte-level BPE tokenizer, read by
    make-vocabulary.py's header reader."""
    spec = importlib.util.spec_from_file_location("make_vocabulary", os.path.join(os.path.dirname(__file__), "make-vocabulary.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    metadata = module.read_metadata(path)
    if metadata.get("tokenizer.ggml.model") != "gpt2":
        raise SystemExit(f"{path}: the vocabulary source must be a byte-level BPE (gpt2) model")
    return metadata["tokenizer.ggml.tokens"], metadata["tokenizer.ggml.token_type"], metadata["tokenizer.ggml.merges"]


class Writer:
    def __init__(self):
        self.header = bytearray()
        self.count = 0

    def string(self, text):
        encoded = text.encode("utf-8")
        self.header += struct.pack("<Q", len(encoded)) + encoded

    def key(self, name, kind, payload):
        self.string(name)
        self.header += struct.pack("<I", kind) + payload
        self.count += 1

    def u32(self, name, number):
        self.key(name, 4, struct.pack("<I", number))

    def f32(self, name, number):
        self.key(name, 6, struct.pack("<f", number))

    def text(self, name, text):
        encoded = text.encode("utf-8")
        self.key(name, 8, struct.pack("<Q", len(encoded)) + encoded)

    def strings(self, name, items):
        payload = bytearray(struct.pack("<IQ", 8, len(items)))
        for item in items:
            encoded = item.encode("utf-8")
            payload += struct.pack("<Q", len(encoded)) + encoded
        self.key(name, 9, bytes(payload))

    def i32s(self, name, items):
        self.key(name, 9, struct.pack("<IQ", 5, len(items)) + struct.pack(f"<{len(items)}i", *items))


def more_bits(layer, layers):
    """llama.cpp's use_more_bits: the first and last eighth of the layers, and every third between."""
    return layer < layers // 8 or layer >= 7 * layers // 8 or (layer - layers // 8) % 3 == 2


def tensors(shape, kind):
    """(name, dimensions (columns first, as GGUF has them), type) of every tensor."""
    architecture, layers, width, heads, kv_heads, feed_forward, vocabulary, tied = shape
    head = width // heads
    kv = kv_heads * head
    matrix = Q8_0 if kind == "q8_0" else Q4_K
    output = Q8_0 if kind == "q8_0" else Q6_K
    result = [("token_embd.weight", (width, vocabulary), output if tied else matrix)]
    for layer in range(layers):
        prefix = f"blk.{layer}."
        bigger = Q8_0 if kind == "q8_0" else (Q6_K if more_bits(layer, layers) else Q4_K)
        result += [
            (prefix + "attn_norm.weight", (width,), F32),
            (prefix + "attn_q.weight", (width, width), matrix),
            (prefix + "attn_k.weight", (width, kv), matrix),
            (prefix + "attn_v.weight", (width, kv), bigger),
            (prefix + "attn_output.weight", (width, width), matrix),
            (prefix + "ffn_norm.weight", (width,), F32),
            (prefix + "ffn_gate.weight", (width, feed_forward), matrix),
            (prefix + "ffn_up.weight", (width, feed_forward), matrix),
            (prefix + "ffn_down.weight", (feed_forward, width), bigger),
        ]
        if architecture == "qwen2":
            result += [(prefix + "attn_q.bias", (width,), F32), (prefix + "attn_k.bias", (kv,), F32), (prefix + "attn_v.bias", (kv,), F32)]
    result.append(("output_norm.weight", (width,), F32))
    if not tied:
        result.append(("output.weight", (width, vocabulary), output))
    return result


def size_of(dimensions, kind):
    elements = 1
    for dimension in dimensions:
        elements *= dimension
    if kind == F32:
        return elements * 4
    block, size = BLOCK[kind]
    return elements // block * size


def pattern(kind, rng, blocks=4096):
    """`blocks` random blocks of `kind` whose 16-bit scales are small and finite."""
    block_size = BLOCK[kind][1]
    data = bytearray(rng.randbytes(blocks * block_size))
    scale = struct.pack("<e", 0.002)
    for index in range(blocks):
        base = index * block_size
        if kind == Q8_0:
            data[base:base + 2] = scale
        elif kind == Q4_K:
            data[base:base + 4] = scale + scale  # the scale and the minimum's scale
        else:
            data[base + 192:base + 208] = bytes(rng.randrange(1, 32) for _ in range(16))
            data[base + 208:base + 210] = scale
    return bytes(data)


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in SHAPES or sys.argv[2] not in FILE_TYPE:
        raise SystemExit(__doc__)
    name, kind, source, path = sys.argv[1:]
    shape = SHAPES[name]
    architecture, layers, width, heads, kv_heads, feed_forward, vocabulary, _ = shape
    tokens, types, merges = read_vocabulary(source)
    padding = vocabulary - len(tokens)
    if padding < 0:
        raise SystemExit(f"{source} has {len(tokens)} tokens, more than the {vocabulary} of {name}: take a smaller vocabulary")
    tokens = tokens + [f"<|unused_{index}|>" for index in range(padding)]
    types = types + [5] * padding  # unused
    writer = Writer()
    writer.text("general.architecture", architecture)
    writer.text("general.name", f"random {name} {kind}")
    writer.u32("general.file_type", FILE_TYPE[kind])
    writer.u32("general.alignment", ALIGNMENT)
    writer.u32(f"{architecture}.block_count", layers)
    writer.u32(f"{architecture}.context_length", 8192)
    writer.u32(f"{architecture}.embedding_length", width)
    writer.u32(f"{architecture}.feed_forward_length", feed_forward)
    writer.u32(f"{architecture}.attention.head_count", heads)
    writer.u32(f"{architecture}.attention.head_count_kv", kv_heads)
    writer.u32(f"{architecture}.rope.dimension_count", width // heads)
    writer.f32(f"{architecture}.rope.freq_base", 500000.0 if architecture == "llama" else 1000000.0)
    writer.f32(f"{architecture}.attention.layer_norm_rms_epsilon", 1e-5 if architecture == "llama" else 1e-6)
    writer.text("tokenizer.ggml.model", "gpt2")
    writer.text("tokenizer.ggml.pre", "llama-bpe" if architecture == "llama" else "qwen2")
    writer.strings("tokenizer.ggml.tokens", tokens)
    writer.i32s("tokenizer.ggml.token_type", types)
    writer.strings("tokenizer.ggml.merges", merges)
    writer.u32("tokenizer.ggml.bos_token_id", 1)
    writer.u32("tokenizer.ggml.eos_token_id", 2)
    layout = tensors(shape, kind)
    infos = bytearray()
    offset = 0
    for tensor, dimensions, type_ in layout:
        encoded = tensor.encode()
        infos += struct.pack("<Q", len(encoded)) + encoded + struct.pack("<I", len(dimensions))
        infos += struct.pack(f"<{len(dimensions)}Q", *dimensions) + struct.pack("<IQ", type_, offset)
        offset += (size_of(dimensions, type_) + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT
    header = b"GGUF" + struct.pack("<IQQ", 3, len(layout), writer.count) + bytes(writer.header) + bytes(infos)
    header += bytes(-len(header) % ALIGNMENT)
    rng = random.Random(42)
    patterns = {kind_: pattern(kind_, rng) for kind_ in (Q8_0, Q4_K, Q6_K)}
    ones = struct.pack("<f", 1.0) * 65536
    with open(path, "wb") as handle:
        handle.write(header)
        for tensor, dimensions, type_ in layout:
            size = size_of(dimensions, type_)
            source = ones if type_ == F32 else patterns[type_]
            written = 0
            while written < size:
                piece = source[: min(len(source), size - written)]
                handle.write(piece)
                written += len(piece)
            handle.write(bytes(-size % ALIGNMENT))
    # A decoded token reads every matrix once, the embeddings only for its own row (all of them
    # when they are the output matrix too).
    read = sum(size_of(d, t) for n, d, t in layout if n != "token_embd.weight" or shape[7])
    print(f"{path}: {name} {kind}, {len(layout)} tensors, {os.path.getsize(path) / 1e9:.2f} GB")
    print(f"bytes read per decoded token: {read}")


if __name__ == "__main__":
    main()
