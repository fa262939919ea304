#!/usr/bin/env python3
"""Runs the mask benchmark's cases through the peer engines, XGrammar and llguidance, and writes
the same JSON lines as `guided-bench masks`: {"id", "compile_ms", "accepted", "reject_at",
"mask_us", "error"}.

usage: run_peers.py ENGINE VOCAB.json CASES.jsonl OUT.jsonl [--whitespace compact|flexible]
       [--extra-properties forbid|allow]
ENGINE: xgrammar or llguidance. Install both from PyPI in a virtual environment outside the
repository. Timing is single-threaded, one mask at a time, as in guided-bench.
"""
import argparse
import json
import time


def load_vocabulary(path):
    vocabulary = json.load(open(path))
    tokens = [bytes.fromhex(t) for t in vocabulary["tokens"]]
    return tokens, vocabulary["eos_token_id"], set(vocabulary["special"])


class XGrammarEngine:
    def __init__(self, tokens, eos, special, flexible, allow_extra):
        import xgrammar as xgr

        self.xgr = xgr
        info = xgr.TokenizerInfo(encoded_vocab=tokens, vocab_type=xgr.VocabType.RAW, vocab_size=len(tokens), stop_token_ids=[eos])
        self.compiler = xgr.GrammarCompiler(info, max_threads=1, cache_enabled=False)
        self.flexible = flexible
        self.strict = not allow_extra
        self.size = len(tokens)
        self.bitmask = xgr.allocate_token_bitmask(1, self.size)

    def compile(self, schema):
        # Compact JSON has no space after ',' and ':' (XGrammar's default separators have one).
        separators = None if self.flexible else (",", ":")
        compiled = self.compiler.compile_json_schema(json.dumps(schema), any_whitespace=self.flexible, separators=separators, strict_mode=self.strict)
        return self.xgr.GrammarMatcher(compiled)

    def mask(self, matcher):
        matcher.fill_next_token_bitmask(self.bitmask)

    def allowed(self, token):
        word = int(self.bitmask[0, token // 32])
        return (word >> (token % 32)) & 1 == 1

    def accept(self, matcher, token):
        return matcher.accept_token(token)


class LLGuidanceEngine:
    def __init__(self, tokens, eos, special, flexible, allow_extra):
        import llguidance
        import numpy

        class Wrapper:
            pass

        wrapper = Wrapper()
        wrapper.eos_token_id = eos
        wrapper.bos_token_id = None
        wrapper.tokens = tokens
        wrapper.special_token_ids = sorted(special)
        wrapper.__call__ = None
        self.llguidance = llguidance
        self.tokenizer = llguidance.LLTokenizer(llguidance.TokenizerWrapper(Encoder(wrapper, tokens, special)))
        self.flexible = flexible
        self.allow_extra = allow_extra
        self.mask_buffer = numpy.zeros(((len(tokens) + 31) // 32,), dtype=numpy.int32)

    def compile(self, schema):
        if not self.allow_extra and isinstance(schema, dict):
            schema = dict(schema)
            schema.setdefault("x-guidance", {})
        grammar = self.llguidance.LLMatcher.grammar_from_json_schema(
            schema, defaults={"whitespace_flexible": self.flexible})
        if not self.allow_extra:
            grammar = forbid_extra(grammar)
        matcher = self.llguidance.LLMatcher(self.tokenizer, grammar, log_level=0)
        if matcher.is_error():
            raise ValueError(matcher.get_error())
        return matcher

    def mask(self, matcher):
        matcher.unsafe_compute_mask_ptr(self.mask_buffer.ctypes.data, self.mask_buffer.nbytes)
        if matcher.is_error():
            raise ValueError(matcher.get_error())

    def allowed(self, token):
        return (int(self.mask_buffer[token // 32]) >> (token % 32)) & 1 == 1

    def accept(self, matcher, token):
        return matcher.consume_token(token) and not matcher.is_error()


def forbid_extra(grammar):
    """llguidance follows the standard (extra properties allowed when additionalProperties is
    absent); its grammar JSON carries the schema, which gets additionalProperties: false where absent."""
    data = json.loads(grammar)

    def close(schema):
        if isinstance(schema, dict):
            if (schema.get("type") == "object" or "properties" in schema) and "additionalProperties" not in schema:
                schema["additionalProperties"] = False
            for value in schema.values():
                close(value)
        elif isinstance(schema, list):
            for value in schema:
                close(value)

    for entry in data.get("grammars", []):
        if "json_schema" in entry:
            close(entry["json_schema"])
    return json.dumps(data)


def load_case_tools():
    """make-cases.py's longest-match tokenizer, which llguidance's API needs as an encoder."""
    import importlib.util
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "make-cases.py")
    spec = importlib.util.spec_from_file_location("make_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Encoder:
    """An encoder for llguidance's tokenizer wrapper, over the benchmark's vocabulary."""

    def __init__(self, base, tokens, special):
        self.eos_token_id = base.eos_token_id
        self.bos_token_id = None
        self.tokens = tokens
        self.special_token_ids = base.special_token_ids
        vocabulary = {"tokens": [token.hex() for token in tokens], "special": sorted(special), "eos_token_id": base.eos_token_id}
        self.tokenizer = load_case_tools().Tokenizer(vocabulary)

    def __call__(self, data):
        text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
        try:
            return self.tokenizer.encode(text)
        except ValueError:
            return []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", choices=["xgrammar", "llguidance"])
    parser.add_argument("vocab")
    parser.add_argument("cases")
    parser.add_argument("out")
    parser.add_argument("--whitespace", choices=["compact", "flexible"], default="compact")
    parser.add_argument("--extra-properties", choices=["forbid", "allow"], default="forbid")
    arguments = parser.parse_args()
    tokens, eos, special = load_vocabulary(arguments.vocab)
    engine_type = XGrammarEngine if arguments.engine == "xgrammar" else LLGuidanceEngine
    engine = engine_type(tokens, eos, special, arguments.whitespace == "flexible", arguments.extra_properties == "allow")
    with open(arguments.cases) as handle, open(arguments.out, "w") as out:
        for line in handle:
            case = json.loads(line)
            record = {"id": case["id"]}
            start = time.perf_counter()
            try:
                matcher = engine.compile(case["schema"])
            except Exception as error:  # a refused schema
                record.update(compile_ms=(time.perf_counter() - start) * 1e3, accepted=False, reject_at=None, mask_us=[], error=str(error)[:300])
                out.write(json.dumps(record) + "\n")
                continue
            record["compile_ms"] = (time.perf_counter() - start) * 1e3
            times = []
            reject_at = None
            try:
                for index, token in enumerate(case["tokens"]):
                    begin = time.perf_counter()
                    engine.mask(matcher)
                    times.append((time.perf_counter() - begin) * 1e6)
                    if not engine.allowed(token) or not engine.accept(matcher, token):
                        reject_at = index
                        break
                if reject_at is None:
                    begin = time.perf_counter()
                    engine.mask(matcher)
                    times.append((time.perf_counter() - begin) * 1e6)
                    if not engine.allowed(eos):
                        reject_at = len(case["tokens"])
            except Exception as error:
                record["error"] = str(error)[:300]
                reject_at = reject_at if reject_at is not None else 0
            record.update(accepted=reject_at is None, reject_at=reject_at, mask_us=times)
            out.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
