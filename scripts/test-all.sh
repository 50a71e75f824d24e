#!/usr/bin/env bash
# Every test of the project, in the order a failure is cheapest to read: formatting and lints,
# the core's Rust tests (unit, fixtures, snapshots, property tests), the WASM package under Node,
# then the browser app in headless Chromium. Installs any missing tool first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

bash scripts/install-tools.sh --test

echo "== cargo fmt --check"
cargo fmt --all --check
echo "== cargo clippy (host, all targets)"
cargo clippy --workspace --exclude roundtable-web --all-targets -- -D warnings
echo "== cargo clippy (wasm32: the core, its JS API, and the web app)"
cargo clippy --workspace --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p roundtable-web --all-targets -- -D warnings
echo "== generated files current (schemas → shape tables → TS types)"
bash scripts/codegen.sh --check
echo "== cargo test (core, the JS API's host tests: UTF-16 transcoder, and the web crate's host tests: safe Markdown, diff, routes, demo file)"
cargo test --workspace --exclude roundtable-web
cargo test -p roundtable-web

echo "== every grammar-form schema through llama.cpp's own converter (scripts/check-grammars.py)"
grammars=$(mktemp -d)
ROUNDTABLE_GRAMMAR_DUMP="$grammars" cargo test -q -p roundtable-core --test provider_rules every_schema
python3 scripts/check-grammars.py "$grammars"
echo "== every grammar-form schema compiled by xgrammar (scripts/check-grammars-xgrammar.py)"
.cache/xgrammar/bin/python scripts/check-grammars-xgrammar.py "$grammars"
rm -rf "$grammars"

echo "== Node tests of the WASM package"
bash scripts/test-core-js.sh

echo "== the static server (scripts/serve.mjs, scripts/precompress.mjs)"
node --test tests/serve/*.test.mjs
echo "== the code sandbox page (static/sandbox/sandbox.html: current, and its policy)"
node --test tests/sandbox/*.test.mjs

echo "== browser tests (release build of the app, headless Chromium)"
bash scripts/test-e2e.sh
echo "all tests passed"
