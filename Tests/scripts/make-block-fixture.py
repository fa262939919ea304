#!/usr/bin/env python3
"""Blocks of every weight type GGUF files use, with their values as the `gguf` package decodes
them (an implementation independent of this library's). Writes Tests/Fixtures/blocks.json: per
type, the GGML type number, the blocks' bytes (hex) and the decoded values.

usage: make-block-fixture.py OUT.json   (needs `pip install numpy gguf`)
"""
import json
import sys

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf.constants import GGML_QUANT_SIZES
from gguf.quants import dequantize

# Where each type keeps its half-precision scales (byte offsets in a block): random bytes there
# would be infinities or NaNs, so they get finite values.
HALF_OFFSETS = {
    T.Q4_0: [0], T.Q4_1: [0, 2], T.Q5_0: [0], T.Q5_1: [0, 2], T.Q8_0: [0], T.IQ4_NL: [0],
    T.Q2_K: [80, 82], T.Q3_K: [108], T.Q4_K: [0, 2], T.Q5_K: [0, 2], T.Q6_K: [208],
}


def main():
    rng = np.random.default_rng(7)
    cases = []
    for qtype in list(HALF_OFFSETS) + [T.F16, T.BF16]:
        block_size, type_size = GGML_QUANT_SIZES[qtype]
        count = 512 if block_size == 256 else 128 if block_size == 32 else 64
        raw = rng.integers(0, 256, size=count // block_size * type_size, dtype=np.uint8)
        if qtype == T.F16:
            raw = rng.normal(size=count).astype(np.float16).view(np.uint8)
        elif qtype == T.BF16:
            raw = (rng.normal(size=count).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16).view(np.uint8)
        else:
            blocks = raw.reshape(-1, type_size)
            for offset in HALF_OFFSETS[qtype]:
                blocks[:, offset:offset + 2] = rng.uniform(-0.05, 0.05, size=(blocks.shape[0], 1)).astype(np.float16).view(np.uint8)
            raw = blocks.reshape(-1)
        values = dequantize(raw, qtype).reshape(-1).astype(np.float32)
        cases.append({"name": qtype.name, "type": int(qtype), "bytes": raw.tobytes().hex(), "values": [float(v) for v in values]})
    with open(sys.argv[1], "w") as out:
        json.dump(cases, out)
        out.write("\n")


if __name__ == "__main__":
    main()
