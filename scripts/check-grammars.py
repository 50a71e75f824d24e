#!/usr/bin/env python3
"""Compiles every grammar-form schema with llama.cpp's own JSON-schema-to-grammar converter.

The schemas are the `grammar` forms core sends to local servers (Ollama, LM Studio, llama.cpp,
vLLM), dumped by `ROUNDTABLE_GRAMMAR_DUMP=<dir> cargo test -p roundtable-core --test
provider_rules` (every step of every kind, plain and narrowed from a 1,000-product session). The
converter is `llama_cpp/llama_grammar.py` of the `llama-cpp-python` sdist on PyPI (a pure-Python
port of llama.cpp's `json-schema-to-grammar`), which scripts/install-tools.sh downloads to
.cache/llama-grammar/. Each schema must convert without error into a grammar whose
every repetition stays under llama.cpp's `MAX_REPETITION_THRESHOLD` (2000, src/llama-grammar.cpp:
a bounded repetition `x{m,n}` of that size is refused when the grammar is parsed).

Usage: check-grammars.py <dump dir> [<llama_grammar.py>]
"""
import importlib.util
import pathlib
import re
import sys
import time

MAX_REPETITION = 2000  # llama.cpp src/llama-grammar.cpp, MAX_REPETITION_THRESHOLD


def load_converter(path):
    spec = importlib.util.spec_from_file_location("llama_grammar", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.json_schema_to_gbnf


def nesting(grammar):
    """The deepest nesting of parentheses in a GBNF text (outside literals and classes)."""
    depth = deepest = 0
    i = 0
    while i < len(grammar):
        c = grammar[i]
        if c in '"[':
            end = '"' if c == '"' else "]"
            i += 1
            while i < len(grammar) and grammar[i] != end:
                i += 2 if grammar[i] == "\\" else 1
        elif c == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif c == ")":
            depth -= 1
        i += 1
    return deepest


def main():
    dump = pathlib.Path(sys.argv[1])
    root = pathlib.Path(__file__).resolve().parent.parent
    converter_path = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else root / ".cache/llama-grammar/llama_grammar.py"
    to_gbnf = load_converter(converter_path)
    files = sorted(dump.glob("*.json"))
    if not files:
        sys.exit(f"no schemas in {dump}")
    failures = []
    for f in files:
        schema = f.read_text()
        start = time.perf_counter()
        try:
            grammar = to_gbnf(schema)
        except Exception as e:  # the converter's refusal is the finding
            failures.append(f"{f.name}: the converter refuses it: {e!r}")
            continue
        took = time.perf_counter() - start
        # This converter writes `x{0,n}` as n nested optional groups, newer ones as `x{0,n}`:
        # either way, a repetition's size is what llama.cpp's limit counts.
        bounds = [int(b) for m in re.finditer(r"\{(\d+)(?:,(\d*))?\}", grammar) for b in m.groups() if b]
        widest = max(bounds + [nesting(grammar)])
        print(f"{f.name}: {len(grammar)} chars of GBNF, widest repetition {widest}, {took * 1000:.0f} ms")
        if widest >= MAX_REPETITION:
            failures.append(f"{f.name}: a repetition of {widest} reaches llama.cpp's limit of {MAX_REPETITION}")
    if failures:
        sys.exit("\n".join(failures))
    print(f"{len(files)} grammar-form schemas convert with llama.cpp's converter")


if __name__ == "__main__":
    main()
