#!/usr/bin/env bash
# Builds core-js/pkg-node and core-js/pkg-web when a Rust input changed, then runs the Node tests of
# the core's JS API (crate roundtable-core-js)
# (tests/core-js/*.test.mjs: every API function, ajv ↔ validateStep agreement on the fixtures,
# tsc --strict on the TypeScript declarations).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules/ajv ] || [ ! -d node_modules/typescript ] || [ ! -d node_modules/zod ]; then
  npm ci --no-audit --no-fund
fi
bash scripts/build-core-pkg.sh node web
node --test tests/core-js/*.test.mjs   # explicit files: Node ≥ 21 reads a bare directory as a glob
