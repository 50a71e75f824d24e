#!/usr/bin/env bash
# Builds the npm packages of the core's JS API (crate `roundtable-core-js` in core-js/, release
# profile; the files keep the name roundtable_core.*):
#   core-js/pkg-node  (wasm-pack --target nodejs: CommonJS, loads the .wasm synchronously)
#   core-js/pkg-web   (wasm-pack --target web: ES module with an async default `init`)
#
# Usage: scripts/build-core-pkg.sh [node] [web]     (no argument: both)
#   FORCE=1     rebuild even when the package is newer than every input
#   WASM_OPT    auto (default): run wasm-opt -O3 from npm's binaryen@132 (node_modules/.bin, from
#               `npm ci`) when it is installed; 1: require it; 0: skip. Never Debian's binaryen 108,
#               whose output fails at start-up. -O3 makes validation ~5% faster and the module
#               ~18% smaller (measured with bench/validate.mjs).
#
# No network: wasm-pack is told not to run wasm-opt (core-js/Cargo.toml metadata) and uses the
# `wasm-bindgen` on PATH, which must equal the version pinned in Cargo.lock. When wasm-pack is not
# installed, the same output is produced by `cargo build` + `wasm-bindgen` + a written package.json.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(node web)

# The wasm-bindgen CLI must match the crate version in Cargo.lock exactly, or the glue breaks.
lock_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
cli_version=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')
if [ "$lock_version" != "$cli_version" ]; then
  echo "error: wasm-bindgen CLI is '${cli_version:-missing}', Cargo.lock wants $lock_version" >&2
  echo "       cargo install wasm-bindgen-cli --version $lock_version" >&2
  exit 1
fi

# Newest input: any Rust source of the core and of its JS API, their manifests, the committed
# schemas, the workspace manifest, lock file and build flags.
newest_input() {
  find core/src engine/src kinds core/schemas core/Cargo.toml core-js/src core-js/Cargo.toml Cargo.toml Cargo.lock \
    rust-toolchain.toml .cargo/config.toml -type f -printf '%T@\n' \
    | sort -n | tail -1
}

build_one() {
  local name=$1 target out
  case $name in
    node) target=nodejs ;;
    web) target=web ;;
    *) echo "error: unknown target '$name' (node or web)" >&2; exit 2 ;;
  esac
  out=core-js/pkg-$name
  local wasm=$out/roundtable_core_bg.wasm
  if [ "${FORCE:-0}" != 1 ] && [ -f "$wasm" ] && [ -f "$out/package.json" ]; then
    local built
    built=$(stat -c '%Y' "$wasm")
    if awk -v a="$(newest_input)" -v b="$built" 'BEGIN { exit !(a < b) }'; then
      echo "core-js/pkg-$name is up to date"
      return
    fi
  fi
  echo "building core-js/pkg-$name (--target $target)"
  if command -v wasm-pack >/dev/null; then
    wasm-pack --quiet build core-js --release --target "$target" --out-dir "pkg-$name" \
      --out-name roundtable_core
  else
    # Fallback without wasm-pack: the same three steps it runs, minus its downloads.
    cargo build --release --target wasm32-unknown-unknown -p roundtable-core-js
    rm -rf "$out"
    wasm-bindgen --target "$target" --typescript --out-dir "$out" --out-name roundtable_core \
      target/wasm32-unknown-unknown/release/roundtable_core_js.wasm
    local main_field
    if [ "$target" = nodejs ]; then main_field='"main": "roundtable_core.js"'
    else main_field='"type": "module", "main": "roundtable_core.js"'; fi
    cat >"$out/package.json" <<EOF
{
  "name": "roundtable-core-js",
  "version": "$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)",
  "license": "MIT OR Apache-2.0",
  "files": ["roundtable_core_bg.wasm", "roundtable_core.js", "roundtable_core.d.ts"],
  $main_field,
  "types": "roundtable_core.d.ts"
}
EOF
    echo '*' >"$out/.gitignore"
  fi
  local opt=$root/node_modules/.bin/wasm-opt
  local want=${WASM_OPT:-auto}
  if [ "$want" = 1 ] && [ ! -x "$opt" ]; then
    echo "error: run npm ci first (binaryen@132 provides wasm-opt)" >&2
    exit 1
  fi
  if [ "$want" = 1 ] || { [ "$want" = auto ] && [ -x "$opt" ]; }; then
    "$opt" --version | grep -q 'version 132' || { echo "error: $opt is not binaryen 132" >&2; exit 1; }
    "$opt" -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$wasm" -o "$wasm.opt"
    mv "$wasm.opt" "$wasm"
  fi
  echo "built core-js/pkg-$name ($(stat -c '%s' "$wasm") bytes of wasm)"
}

for t in "${targets[@]}"; do
  build_one "$t"
done
