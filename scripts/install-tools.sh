#!/usr/bin/env bash
# Installs what building and testing Roundtable needs, skipping anything already at the right
# version, so a repeated run takes seconds. Only registries are used (apt, crates.io, npm): nothing
# is downloaded from GitHub. See ../shared/TOOLCHAIN.md for why each pin is what it is.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/"/,"",$3); print $3; exit}' Cargo.lock)
: "${WASM_BINDGEN_VERSION:?wasm-bindgen not found in Cargo.lock}"
export PATH="$HOME/.cargo/bin:$PATH"

have() { command -v "$1" >/dev/null 2>&1; }
step() { printf '\n== %s\n' "$*"; }

if ! have chromium || ! have chromedriver; then
  step "chromium + chromedriver (apt)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

step "rust toolchain (rust-toolchain.toml: 1.95.0 + wasm32 target)"
rustup show active-toolchain >/dev/null
rustup target list --installed | grep -q wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  step "wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # not --locked: its lock file pins a webpki-roots version the registry here lacks
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi
if [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "0.15.1" ]; then
  step "wasm-pack 0.15.1"
  cargo install --locked wasm-pack --version 0.15.1 --force
fi
if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "0.21.14" ]; then
  step "trunk 0.21.14 (0.22 needs a newer rustc)"
  cargo install --locked trunk --version 0.21.14 --force
fi

step "npm dev dependencies (ajv, zod, binaryen's wasm-opt, playwright-core — no browser download)"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
fi
echo "tools ready"
