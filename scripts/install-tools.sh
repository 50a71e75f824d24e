#!/usr/bin/env bash
# Installs what Roundtable needs, skipping whatever is already there at the right version, so a
# repeated run takes seconds. Only registries are used (apt, crates.io, npm, PyPI); nothing comes
# from GitHub. ../shared/TOOLCHAIN.md says why each pin is what it is.
#
#   scripts/install-tools.sh          to build and serve the app (scripts/serve.sh): the wasm32
#                                     target, wasm-bindgen-cli at exactly the version Cargo.lock
#                                     pins, trunk 0.21.14 (0.22 needs a newer rustc), and npm's
#                                     `dependencies` (binaryen's wasm-opt) — nothing else.
#   scripts/install-tools.sh --test   all of that, plus what only the tests need (scripts/test-all.sh,
#                                     .ci/run): Debian's chromium + chromedriver, g++ (the fuzz
#                                     run's libFuzzer), wasm-pack 0.15.1 (the core's JS package),
#                                     npm's `devDependencies` (playwright-core — which never
#                                     downloads a browser —, axe-core, ajv, zod, typescript),
#                                     llama.cpp's grammar converter and xgrammar (PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

tests=0
case "${1:-}" in
  --test) tests=1 ;;
  "") ;;
  *) echo "usage: scripts/install-tools.sh [--test]" >&2; exit 2 ;;
esac

SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
apt_updated=0
apt_install() {
  [ "$apt_updated" = 1 ] || { $SUDO apt-get update -qq; apt_updated=1; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

bindgen=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
: "${bindgen:?wasm-bindgen not found in Cargo.lock}"

# ---- building and serving (scripts/serve.sh) ----
rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen" ]; then
  echo "installing wasm-bindgen-cli $bindgen (about 3 minutes)…"
  # not --locked: its lock file pins a webpki-roots version the registry here lacks
  cargo install wasm-bindgen-cli --version "$bindgen" --force
fi
if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "0.21.14" ]; then
  echo "installing trunk 0.21.14 (about 11 minutes on 2 cores)…"
  cargo install --locked trunk --version 0.21.14 --force
fi

# npm: `dependencies` is what the build runs (binaryen's wasm-opt); `devDependencies` only the
# tests. A serve-only machine gets `npm ci --omit=dev`; the test run the whole lock file.
npm_stale() { [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }
if [ "$tests" = 1 ]; then
  if npm_stale || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ]; then
    echo "installing npm packages (build and test)…"
    npm ci --no-audit --no-fund
  fi
elif npm_stale || [ ! -x node_modules/.bin/wasm-opt ]; then
  echo "installing npm packages the build needs (binaryen)…"
  npm ci --omit=dev --no-audit --no-fund
fi

if [ "$tests" = 0 ]; then
  echo "tools to build and serve ready"
  exit 0
fi

# ---- only the tests (scripts/test-all.sh, .ci/run) ----
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "installing chromium + chromium-driver (apt)…"
  apt_install chromium chromium-driver
fi
# The fuzz run (scripts/fuzz.sh) builds libFuzzer's C++ runtime (libfuzzer-sys): a C++ compiler.
if ! command -v c++ >/dev/null; then
  echo "installing a C++ compiler for the fuzz run (apt g++)…"
  apt_install g++
fi
if [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "0.15.1" ]; then
  echo "installing wasm-pack 0.15.1 (about 4 minutes)…"
  cargo install --locked wasm-pack --version 0.15.1 --force
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
echo "tools to build, serve and test ready"
