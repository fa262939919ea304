#!/usr/bin/env python3
"""Writes the vocabulary file guided-bench and the peer script read, from a GGUF model.

usage: make-vocabulary.py MODEL.gguf OUT.json   (the first part of a split model is enough)

OUT.json: {"eos_token_id": N, "tokens": [hex of each token's raw bytes], "special": [ids],
"tokenizer": "gpt2" or "llama", "pieces": [the token strings as the GGUF stores them]}.
Byte-level BPE tokens (gpt2) are mapped back from GPT-2's printable byte alphabet; SentencePiece
tokens (llama) turn '▁' into a space and <0xNN> into the byte NN. Control, user-defined and
unused tokens are special: they never appear inside generated JSON.
"""
import json
import struct
import sys


def gpt2_byte_decoder():
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    codes = printable[:]
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            codes.append(256 + extra)
            extra += 1
    return {chr(code): byte for byte, code in zip(printable, codes)}


def read_metadata(path):
    """The key-value metadata of a GGUF file (version 2 or 3). Only the header is read, so the
    first part of a model split into parts is enough."""
    scalar = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
    with open(path, "rb") as handle:
        data = handle.read(64 << 20)
    offset = 0

    def take(fmt):
        nonlocal offset
        value = struct.unpack_from(fmt, data, offset)
        offset += struct.calcsize(fmt)
        return value[0]

    def string():
        nonlocal offset
        length = take("<Q")
        value = data[offset:offset + length].decode("utf-8", errors="replace")
        offset += length
        return value

    def value(kind):
        if kind == 8:
            return string()
        if kind == 9:
            item_kind = take("<I")
            return [value(item_kind) for _ in range(take("<Q"))]
        return take(scalar[kind])

    if data[:4] != b"GGUF":
        raise SystemExit(f"{path}: not a GGUF file")
    offset = 4
    take("<I")  # version
    take("<Q")  # tensor count
    metadata = {}
    for _ in range(take("<Q")):
        key = string()
        metadata[key] = value(take("<I"))
    return metadata


def main():
    model, out = sys.argv[1], sys.argv[2]
    metadata = read_metadata(model)
    kind = metadata["tokenizer.ggml.model"]
    pieces = metadata["tokenizer.ggml.tokens"]
    types = metadata["tokenizer.ggml.token_type"]
    eos = int(metadata["tokenizer.ggml.eos_token_id"])
    decoder = gpt2_byte_decoder()
    tokens = []
    for piece, token_type in zip(pieces, types):
        if kind == "gpt2":
            raw = bytes(decoder[c] for c in piece) if all(c in decoder for c in piece) else piece.encode("utf-8")
        else:
            if token_type == 6 and piece.startswith("<0x") and piece.endswith(">"):
                raw = bytes([int(piece[3:-1], 16)])
            else:
                raw = piece.replace("\u2581", " ").encode("utf-8")
        tokens.append(raw.hex())
    special = [index for index, token_type in enumerate(types) if token_type in (2, 3, 4, 5)]
    with open(out, "w") as handle:
        json.dump({"eos_token_id": eos, "tokens": tokens, "special": special, "tokenizer": kind, "pieces": pieces}, handle)
    print(f"{out}: {len(tokens)} tokens ({kind}), {len(special)} special, eos {eos}")


if __name__ == "__main__":
    main()
