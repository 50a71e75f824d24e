#!/usr/bin/env bash
# Builds the browser app into dist/ for production: release-web profile (opt-level z, LTO),
# wasm-opt -Oz from binaryen@132 (npm), the CSP boot hook. `--debug` builds fast for iterating.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Size: Leptos' `erase_components` cfg type-erases components and reactive view closures, so the
# view code is compiled once per output type instead of once per closure (about -70 KB gzip of
# wasm). Set for the wasm target only; host build scripts and proc macros are unaffected.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} --cfg erase_components"
if [ "${1:-}" = "--debug" ]; then
  exec trunk build
fi
exec trunk build --release --cargo-profile release-web
