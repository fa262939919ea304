#!/usr/bin/env python3
"""Runs the mask benchmark's cases through the peer engines, XGrammar and llguidance, and writes
the same JSON lines as `guided-bench masks`: {"id", "compile_ms", "accepted", "reject_at",
"mask_us", "error"}.

A case is a JSON Schema and an instance (make-cases.py), or a grammar and a sample text
(make-grammar-cases.py: "format" gbnf or lark). XGrammar reads GBNF (`Grammar.from_ebnf`, root
rule `root`; its parser refuses an empty first alternative, `ws ::= | " "`, which llama.cpp's
json.gbnf and json_arr.gbnf have, so that one is spelt `""` for it) and no Lark; llguidance reads Lark (`LLMatcher.grammar_from_lark`) and GBNF through
its own converter (`llguidance.grammar_from("gbnf", ...)`, which is `gbnf_to_lark`).

usage: run_peers.py ENGINE VOCAB.json CASES.jsonl OUT.jsonl [--whitespace compact|flexible]
       [--extra-properties forbid|allow] [--timeout SECONDS] [--memory-gb GB] [--reuse-compiled]
       [--resume]
ENGINE: xgrammar or llguidance. Install both from PyPI in a virtual environment outside the
repository. Timing is single-threaded, one mask at a time, as in guided-bench.

The cases run in a worker process that this script watches: a case whose compile, or whose masks
together, take longer than --timeout seconds (default 30), or that crashes the engine, is recorded
with an error and the worker restarts at the next case. --memory-gb (default 8, 0: none) caps
the memory a worker may add after loading the engine, so that a runaway compile fails instead of
exhausting the machine. An error record also says where it happened: "stage" is "compile" (the
schema was refused or did not compile in time: reject_at is null) or "masks" (it compiled).

--reuse-compiled: consecutive cases with the same schema or grammar (the instances of one
JSONSchemaBench schema, the samples of one grammar) share XGrammar's compile, each with a fresh
matcher, and each records that compile's time; XGrammar precomputes its masks while compiling,
which dominates its time on large schemas. A schema or grammar whose compile timed out or crashed
is then not compiled again for its next cases.

--resume: keeps the records already in OUT (from a run that was stopped) and runs the cases after
the last of them.
llguidance compiles lazily inside its matcher, so it compiles every case either way.
"""
import argparse
import json
import os
import re
import select
import subprocess
import sys
import time


def load_vocabulary(path):
    vocabulary = json.load(open(path))
    tokens = [bytes.fromhex(t) for t in vocabulary["tokens"]]
    return tokens, vocabulary["eos_token_id"], set(vocabulary["special"])


class XGrammarEngine:
    reusable = True  # a compiled grammar serves any number of matchers

    def __init__(self, tokens, eos, special, flexible, allow_extra):
        import xgrammar as xgr

        self.xgr = xgr
        info = xgr.TokenizerInfo(encoded_vocab=tokens, vocab_type=xgr.VocabType.RAW, vocab_size=len(tokens), stop_token_ids=[eos])
        self.compiler = xgr.GrammarCompiler(info, max_threads=1, cache_enabled=False)
        self.flexible = flexible
        self.strict = not allow_extra
        self.size = len(tokens)
        self.bitmask = xgr.allocate_token_bitmask(1, self.size)

    def compile(self, case):
        if "grammar" in case:
            if case["format"] != "gbnf":
                raise ValueError(f"XGrammar reads GBNF and EBNF grammars, not {case['format']}")
            text = re.sub(r"::=(\s*)\|", r'::=\1"" |', case["grammar"])
            return self.compiler.compile_grammar(self.xgr.Grammar.from_ebnf(text, root_rule_name="root"))
        schema = case["schema"]
        # Compact JSON has no space after ',' and ':' (XGrammar's default separators have one).
        separators = None if self.flexible else (",", ":")
        return self.compiler.compile_json_schema(json.dumps(schema), any_whitespace=self.flexible, separators=separators, strict_mode=self.strict)

    def start(self, compiled):
        return self.xgr.GrammarMatcher(compiled)

    def mask(self, matcher):
        matcher.fill_next_token_bitmask(self.bitmask)

    def allowed(self, token):
        word = int(self.bitmask[0, token // 32])
        return (word >> (token % 32)) & 1 == 1

    def accept(self, matcher, token):
        return matcher.accept_token(token)


class LLGuidanceEngine:
    reusable = False  # the matcher is the compiled grammar

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

    def compile(self, case):
        if "grammar" in case:
            if case["format"] == "lark":
                grammar = self.llguidance.LLMatcher.grammar_from_lark(case["grammar"])
            else:
                grammar = self.llguidance.grammar_from("gbnf", case["grammar"])
            return self.matcher(grammar)
        schema = case["schema"]
        if not self.allow_extra and isinstance(schema, dict):
            schema = dict(schema)
            schema.setdefault("x-guidance", {})
        grammar = self.llguidance.LLMatcher.grammar_from_json_schema(
            schema, defaults={"whitespace_flexible": self.flexible})
        if not self.allow_extra:
            grammar = forbid_extra(grammar)
        return self.matcher(grammar)

    def matcher(self, grammar):
        matcher = self.llguidance.LLMatcher(self.tokenizer, grammar, log_level=0)
        if matcher.is_error():
            raise ValueError(matcher.get_error())
        return matcher

    def start(self, compiled):
        return compiled

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


def case_key(case):
    """What cases that share a compile have in common: the schema, or the grammar's text."""
    if "grammar" in case:
        return json.dumps([case["format"], case["grammar"]])
    return json.dumps(case["schema"], sort_keys=True)


def compile_case(engine, case):
    """(compiled schema or grammar or the exception that refused it, a matcher or None, milliseconds)."""
    start = time.perf_counter()
    try:
        compiled = engine.compile(case)
        matcher = engine.start(compiled)
    except Exception as error:  # a refused schema
        return error, None, (time.perf_counter() - start) * 1e3
    return compiled, matcher, (time.perf_counter() - start) * 1e3


def run_case(engine, eos, case, report, last=None):
    """One case's record; report(compile_ms) is called once the schema has compiled. With last
    (a dict, for engines whose compiled grammars are reusable), a case whose schema or grammar is
    the previous case's reuses that compile and records its time."""
    record = {"id": case["id"]}
    key = case_key(case) if last is not None else None
    if last is not None and last.get("key") == key:
        compiled, compile_ms = last["compiled"], last["compile_ms"]
        matcher = None if isinstance(compiled, Exception) else engine.start(compiled)
    else:
        compiled, matcher, compile_ms = compile_case(engine, case)
        if last is not None:
            last.update(key=key, compiled=compiled, compile_ms=compile_ms)
    if isinstance(compiled, Exception):
        record.update(compile_ms=compile_ms, accepted=False, reject_at=None, mask_us=[], error=str(compiled)[:300], stage="compile")
        return record
    record["compile_ms"] = compile_ms
    report(record["compile_ms"])
    times = []
    reject_at = None
    index = 0
    try:
        for index, token in enumerate(case["tokens"]):
            begin = time.perf_counter()
            engine.mask(matcher)
            times.append((time.perf_counter() - begin) * 1e6)
            if not engine.allowed(token) or not engine.accept(matcher, token):
                reject_at = index
                break
        if reject_at is None:
            index = len(case["tokens"])
            begin = time.perf_counter()
            engine.mask(matcher)
            times.append((time.perf_counter() - begin) * 1e6)
            if not engine.allowed(eos):
                reject_at = index
    except Exception as error:  # an engine error while masking or advancing: the case is rejected there
        record.update(error=str(error)[:300], stage="masks")
        reject_at = index
    record.update(accepted=reject_at is None, reject_at=reject_at, mask_us=times)
    return record


def worker(arguments):
    """Runs the cases from number arguments.worker on, reporting each on the original standard
    output, one line per event: begin, compiled and the record."""
    channel = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything the engines print goes to standard error
    tokens, eos, special = load_vocabulary(arguments.vocab)
    engine_type = XGrammarEngine if arguments.engine == "xgrammar" else LLGuidanceEngine
    engine = engine_type(tokens, eos, special, arguments.whitespace == "flexible", arguments.extra_properties == "allow")
    if arguments.memory_gb > 0:
        import resource

        with open("/proc/self/statm") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = used + int(arguments.memory_gb * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    last = {} if arguments.reuse_compiled and engine.reusable else None
    with open(arguments.cases) as handle:
        for number, line in enumerate(handle):
            if number == arguments.worker - 1 and last is not None and arguments.after_failure:
                # The previous worker stopped while compiling this case's schema: the next cases
                # of the same schema share that outcome instead of compiling it again.
                message, milliseconds = arguments.after_failure
                last.update(key=case_key(json.loads(line)), compiled=RuntimeError(message),
                            compile_ms=float(milliseconds))
            if number < arguments.worker or not line.strip():
                continue
            case = json.loads(line)
            channel.write(f"begin\t{number}\t{json.dumps(case['id'])}\n")
            record = run_case(engine, eos, case, lambda milliseconds: channel.write(f"compiled\t{number}\t{milliseconds}\n"), last)
            channel.write("record\t" + json.dumps(record) + "\n")


def resume(arguments):
    """Keeps the complete records of an earlier run's OUT; returns the number of the case after
    the last of them, and how many there are."""
    with open(arguments.out, "rb") as handle:
        data = handle.read()
    data = data[:data.rfind(b"\n") + 1]  # a record cut short by a stop is dropped
    with open(arguments.out, "wb") as handle:
        handle.write(data)
    lines = data.splitlines()
    if not lines:
        return 0, 0
    last = json.loads(lines[-1])["id"]
    with open(arguments.cases) as handle:
        for number, line in enumerate(handle):
            if line.strip() and json.loads(line)["id"] == last:
                print(f"{arguments.out}: {len(lines)} records kept, resuming after {last}", file=sys.stderr, flush=True)
                return number + 1, len(lines)
    raise SystemExit(f"{arguments.out}: its last record, {last}, is not a case of {arguments.cases}")


def supervise(arguments):
    """Runs workers until every case has a record, replacing one that hangs or crashes."""
    command = [sys.executable, os.path.abspath(__file__), arguments.engine, arguments.vocab, arguments.cases, arguments.out,
               "--whitespace", arguments.whitespace, "--extra-properties", arguments.extra_properties,
               "--memory-gb", str(arguments.memory_gb)] + (["--reuse-compiled"] if arguments.reuse_compiled else [])
    start_case = 0
    after_failure = []
    written = 0
    stopped = 0
    if arguments.resume and os.path.exists(arguments.out):
        start_case, written = resume(arguments)
    with open(arguments.out, "a" if written else "w") as out:
        while True:
            process = subprocess.Popen(command + ["--worker", str(start_case)] + after_failure, stdout=subprocess.PIPE)
            current = None  # the case in progress: {"number", "id", "stage", "since", "compile_ms"}
            pending = b""
            failure = None
            while True:
                timeout = None if current is None else max(0.0, current["since"] + arguments.timeout - time.monotonic())
                ready, _, _ = select.select([process.stdout], [], [], timeout)
                if not ready:
                    failure = f"timeout: {current['stage']} took more than {arguments.timeout:g} s"
                    process.kill()
                    process.wait()
                    break
                data = os.read(process.stdout.fileno(), 1 << 20)
                if not data:
                    code = process.wait()
                    if code == 0 and current is None:
                        break
                    failure = f"engine crashed (exit status {code})"
                    break
                pending += data
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    kind, _, rest = line.decode("utf-8").partition("\t")
                    if kind == "begin":
                        number, _, identifier = rest.partition("\t")
                        current = {"number": int(number), "id": json.loads(identifier), "stage": "compile", "since": time.monotonic()}
                    elif kind == "compiled":
                        current.update(stage="masks", since=time.monotonic(), compile_ms=float(rest.split("\t")[1]))
                    elif kind == "record":
                        out.write(rest + "\n")
                        written += 1
                        start_case = current["number"] + 1
                        current = None
                        if written % 1000 == 0:
                            out.flush()
                            print(f"{arguments.engine}: {written} cases", file=sys.stderr, flush=True)
            if failure is None:
                break
            if current is None:
                raise SystemExit(f"{arguments.engine}: the worker stopped outside a case: {failure}")
            stopped += 1
            elapsed_ms = (time.monotonic() - current["since"]) * 1e3
            record = {"id": current["id"], "compile_ms": current.get("compile_ms", elapsed_ms), "accepted": False,
                      "reject_at": None, "mask_us": [], "error": failure, "stage": current["stage"]}
            out.write(json.dumps(record) + "\n")
            written += 1
            start_case = current["number"] + 1
            after_failure = ["--after-failure", failure, str(record["compile_ms"])] if current["stage"] == "compile" else []
            print(f"{arguments.engine}: {current['id']}: {failure}", file=sys.stderr, flush=True)
    print(f"{arguments.out}: {written} cases, {stopped} stopped (timeout or crash)", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", choices=["xgrammar", "llguidance"])
    parser.add_argument("vocab")
    parser.add_argument("cases")
    parser.add_argument("out")
    parser.add_argument("--whitespace", choices=["compact", "flexible"], default="compact")
    parser.add_argument("--extra-properties", choices=["forbid", "allow"], default="forbid")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds a compile, or a case's masks, may take")
    parser.add_argument("--memory-gb", type=float, default=8.0, help="memory a worker may add to the engine's (0: no limit)")
    parser.add_argument("--reuse-compiled", action="store_true",
                        help="XGrammar: consecutive cases of the same schema share one compile, whose time each records")
    parser.add_argument("--resume", action="store_true", help="keep OUT's records and run the cases after the last of them")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--after-failure", nargs=2, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker is not None:
        worker(arguments)
    else:
        supervise(arguments)


if __name__ == "__main__":
    main()
