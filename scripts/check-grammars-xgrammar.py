#!/usr/bin/env python3
"""Compiles every grammar-form schema with xgrammar, the structured-generation engine vLLM uses.

The schemas are the ones scripts/check-grammars.py reads (the `grammar` forms core sends to local
servers, dumped by `ROUNDTABLE_GRAMMAR_DUMP=<dir> cargo test -p roundtable-core --test
provider_rules`). Each must compile — `GrammarCompiler.compile_json_schema`, what a vLLM server
runs before the first token — without error, against a tokenizer vocabulary of 32,000 tokens
(made here: no model is downloaded). The time each took is printed as a figure (BENCHMARKS.md,
"Grammar compile"), not asserted: a timed check flakes on a busy machine.

xgrammar 0.2.8 (PyPI) is installed by scripts/install-tools.sh into .cache/xgrammar with
`--no-deps` plus only what its compiler needs (apache-tvm-ffi, pydantic, numpy): its wheel also
requires torch, transformers and triton (several GB), which only its GPU token-mask kernels and
its test helpers use. Those three are stubbed below so `import xgrammar` succeeds; the compiler
itself is xgrammar's own C++ code through tvm-ffi.

Usage: .cache/xgrammar/bin/python check-grammars-xgrammar.py <dump dir>
"""
import pathlib
import sys
import time
import types

import tvm_ffi  # noqa: F401  imported before the stubs: it probes for a real torch itself

VOCABULARY = 32_000


class _Stub(type):
    """A stand-in class whose every attribute is another stand-in (torch.Tensor, torch.int32…)."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub(name, (_Anything,), {})


class _Anything(metaclass=_Stub):
    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything()

    def __call__(self, *args, **kwargs):
        return _Anything()


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub(name, (_Anything,), {})


for _name in ("torch", "transformers", "triton"):
    sys.modules[_name] = _StubModule(_name)

import xgrammar  # noqa: E402


def vocabulary():
    """32,000 distinct tokens shaped like a BPE vocabulary: bytes, JSON punctuation, word pieces
    with and without a leading space."""
    tokens = [chr(c) for c in range(32, 127)] + ["\n", "\t", '",', '":', '{"', '"}', "[]", "{}"]
    letters = "etaoinshrdlucmfwypvbgkjqxz"
    i = 0
    while len(tokens) < VOCABULARY:
        n, piece = i, ""
        while True:
            piece += letters[n % 26]
            n //= 26
            if n == 0:
                break
        tokens.append(piece)
        tokens.append(" " + piece)
        i += 1
    return tokens[:VOCABULARY]


def main():
    dump = pathlib.Path(sys.argv[1])
    files = sorted(dump.glob("*.json"))
    if not files:
        sys.exit(f"no schemas in {dump}")
    compiler = xgrammar.GrammarCompiler(xgrammar.TokenizerInfo(vocabulary()), cache_enabled=False)
    failures = []
    slowest = (0.0, "")
    for f in files:
        start = time.perf_counter()
        try:
            compiler.compile_json_schema(f.read_text(), strict_mode=True)
        except Exception as e:  # the compiler's refusal is the finding
            failures.append(f"{f.name}: xgrammar refuses it: {e!r}")
            continue
        took = time.perf_counter() - start
        print(f"{f.name}: compiled by xgrammar in {took * 1000:.0f} ms")
        slowest = max(slowest, (took, f.name))
    if failures:
        sys.exit("\n".join(failures))
    print(f"{len(files)} grammar-form schemas compile with xgrammar; slowest {slowest[1]} in {slowest[0] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
