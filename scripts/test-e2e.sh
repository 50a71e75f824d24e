#!/usr/bin/env bash
# Runs the browser tests (or only the files given as arguments): builds dist/ (release) if it is missing or older than the sources,
# serves it on loopback (scripts/serve.mjs, the server scripts/serve.sh runs), runs tests/e2e
# with node --test, and stops the server by its PID.
# Screenshots and downloads land in tests/output/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

{ [ -d node_modules/playwright-core ] && [ -d node_modules/axe-core ] && [ -x /usr/bin/chromium ]; } || bash scripts/install-tools.sh --test

stale=0
if [ ! -f dist/index.html ]; then
  stale=1
elif [ -n "$(find web/src core/src engine/src kinds static index.html Trunk.toml Cargo.toml -newer dist/index.html -print -quit)" ]; then
  stale=1
fi
if [ "$stale" = 1 ] || [ "${RT_REBUILD:-0}" = 1 ]; then
  # RT_DEBUG_BUILD=1: a fast debug build while iterating (CI always builds for release).
  if [ "${RT_DEBUG_BUILD:-0}" = 1 ]; then bash scripts/build-web.sh --debug; else bash scripts/build-web.sh; fi
fi

# The provider mock judges each request's schema with the core's rule checkers, loaded from the
# JS API's Node package (tests/e2e/provider-rules.mjs); rebuilt only when a Rust input changed.
bash scripts/build-core-pkg.sh node

PORT="${RT_PORT:-8765}"
node scripts/serve.mjs dist --port "$PORT" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  curl -sf "http://127.0.0.1:$PORT/" >/dev/null && break
  sleep 0.1
done
mkdir -p tests/output
# With arguments, only those test files run (tests/e2e/review.test.mjs …); without, every one.
if [ "$#" -gt 0 ]; then files=("$@"); else files=(tests/e2e/); fi
RT_BASE_URL="http://127.0.0.1:$PORT/" node --test --test-concurrency=1 "${files[@]}"
