#!/usr/bin/env bash
# Installs what building and testing the browser app needs, skipping whatever is already there:
# the wasm32 target, trunk 0.21.14, wasm-bindgen-cli at the version pinned in Cargo.toml, the npm
# dev tools (binaryen's wasm-opt, playwright-core), and Debian's chromium + chromedriver.
# Only registries are used (crates.io, npm, apt); nothing is downloaded from elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

need_bindgen=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' Cargo.toml)

rustup target list --installed 2>/dev/null | grep -q wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown

if ! trunk --version 2>/dev/null | grep -q '0.21.14'; then
  echo "installing trunk 0.21.14 (about 11 minutes on 2 cores)…"
  cargo install --locked trunk --version 0.21.14
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q "$need_bindgen"; then
  echo "installing wasm-bindgen-cli $need_bindgen…"
  cargo install wasm-bindgen-cli --version "$need_bindgen"
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ]; then
  npm install --no-audit --no-fund
fi

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  if command -v apt-get >/dev/null; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver
  else
    echo "chromium is missing and apt-get is not available: install Chromium at /usr/bin/chromium" >&2
  fi
fi
