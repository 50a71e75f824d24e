#!/usr/bin/env bash
# Installs what building and testing Roundtable needs, skipping whatever is already there at the
# right version, so a repeated run takes seconds: Debian's chromium + chromedriver, g++ (for the
# fuzz run's libFuzzer), the wasm32 target, wasm-bindgen-cli at exactly the version Cargo.lock
# pins, wasm-pack 0.15.1, trunk 0.21.14
# (0.22 needs a newer rustc), and the npm dev tools (ajv, zod, typescript, binaryen's wasm-opt,
# playwright-core — which never downloads a browser), and llama.cpp's grammar converter. Only
# registries are used (apt, crates.io, npm, PyPI); nothing comes from GitHub. ../shared/TOOLCHAIN.md says why each pin is what it is.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

bindgen=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
: "${bindgen:?wasm-bindgen not found in Cargo.lock}"

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "installing chromium + chromium-driver (apt)…"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# The fuzz run (scripts/fuzz.sh) builds libFuzzer's C++ runtime (libfuzzer-sys): a C++ compiler.
if ! command -v c++ >/dev/null; then
  echo "installing a C++ compiler for the fuzz run (apt g++)…"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq g++ >/dev/null
fi

rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen" ]; then
  echo "installing wasm-bindgen-cli $bindgen (about 3 minutes)…"
  # not --locked: its lock file pins a webpki-roots version the registry here lacks
  cargo install wasm-bindgen-cli --version "$bindgen" --force
fi
if [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "0.15.1" ]; then
  echo "installing wasm-pack 0.15.1 (about 4 minutes)…"
  cargo install --locked wasm-pack --version 0.15.1 --force
fi
if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "0.21.14" ]; then
  echo "installing trunk 0.21.14 (about 11 minutes on 2 cores)…"
  cargo install --locked trunk --version 0.21.14 --force
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing npm dev dependencies…"
  npm ci --no-audit --no-fund
fi
# llama.cpp's JSON-schema-to-grammar converter, for scripts/check-grammars.py: the pure-Python
# port in the llama-cpp-python sdist (PyPI; downloaded, never built or installed — only
# llama_cpp/llama_grammar.py is kept).
if [ ! -f .cache/llama-grammar/llama_grammar.py ]; then
  echo "fetching llama.cpp's grammar converter (llama-cpp-python 0.3.36 sdist, PyPI)…"
  mkdir -p .cache/llama-grammar
  python3 -m pip download --quiet --no-deps --no-binary llama-cpp-python \
    llama-cpp-python==0.3.36 -d .cache/llama-grammar
  tar -xzf .cache/llama-grammar/llama_cpp_python-0.3.36.tar.gz -C .cache/llama-grammar \
    --strip-components=2 llama_cpp_python-0.3.36/llama_cpp/llama_grammar.py
  rm .cache/llama-grammar/llama_cpp_python-0.3.36.tar.gz
fi
# xgrammar (vLLM's structured-generation engine), for scripts/check-grammars-xgrammar.py: its
# wheel with --no-deps plus only what its grammar compiler needs (PyPI, pinned). Its torch,
# transformers and triton requirements (several GB) serve only its GPU kernels; the script stubs them.
if ! .cache/xgrammar/bin/python -c "import xgrammar" 2>/dev/null; then
  echo "installing xgrammar 0.2.8 (PyPI, no torch) into .cache/xgrammar…"
  rm -rf .cache/xgrammar
  python3 -m venv .cache/xgrammar
  .cache/xgrammar/bin/pip install --quiet --no-deps xgrammar==0.2.8 apache-tvm-ffi==0.1.15.post2 \
    pydantic==2.14.4 pydantic_core==2.50.5 annotated-types==0.8.0 typing-inspection==0.4.5 \
    typing_extensions==4.16.0 numpy==2.4.6
fi
echo "tools ready"
