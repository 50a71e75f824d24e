#!/usr/bin/env bash
# The README's first command: installs what is missing, builds the app (release), and serves
# dist/ on http://127.0.0.1:8080 with scripts/serve.mjs (the precompressed files, cache headers)
# — open it and run a demo session, no key needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-tools.sh
bash scripts/build-web.sh
PORT="${PORT:-8080}"
echo "Roundtable is at http://127.0.0.1:${PORT}/ (Ctrl-C stops it)"
exec node scripts/serve.mjs dist --port "$PORT"
