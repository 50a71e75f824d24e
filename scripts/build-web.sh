#!/usr/bin/env bash
# Builds the browser app into dist/ for production: release-web profile (opt-level z, LTO),
# wasm-opt -Oz from binaryen@132 (npm), the CSP boot hook. `--debug` builds fast for iterating.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
if [ "${1:-}" = "--debug" ]; then
  exec trunk build
fi
exec trunk build --release --cargo-profile release-web
