#!/usr/bin/env python3
"""Writes the vocabulary file guided-bench and the peer script read, from a GGUF model.

usage: make-vocabulary.py MODEL.gguf OUT.json

OUT.json: {"eos_token_id": N, "tokens": [hex of each token's raw bytes], "special": [ids],
"tokenizer": "gpt2" or "llama", "pieces": [the token strings as the GGUF stores them]}.
Byte-level BPE tokens (gpt2) are mapped back from GPT-2's printable byte alphabet; SentencePiece
tokens (llama) turn '▁' into a space and <0xNN> into the byte NN. Control, user-defined and
unused tokens are special: they never appear inside generated JSON.
"""
import json
import sys

from gguf import GGUFReader


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


def field_value(reader, name):
    field = reader.fields[name]
    if len(field.data) == 1:
        part = field.parts[field.data[0]]
        return part.tobytes().decode("utf-8") if part.dtype.kind == "u" and part.dtype.itemsize == 1 else part[0]
    return [field.parts[index] for index in field.data]


def main():
    model, out = sys.argv[1], sys.argv[2]
    reader = GGUFReader(model)
    kind = field_value(reader, "tokenizer.ggml.model")
    pieces = [bytes(part).decode("utf-8") for part in field_value(reader, "tokenizer.ggml.tokens")]
    types = [int(part[0]) for part in field_value(reader, "tokenizer.ggml.token_type")]
    eos = int(field_value(reader, "tokenizer.ggml.eos_token_id"))
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
