#!/usr/bin/env bash
# Every generated file, regenerated in the order each is made from the one before:
#   1. the JSON Schemas (core/schemas/*.json), derived from each kind's answer types by its test
#      named `committed_schemas_are_current` (the team's in kinds/team/src/answer_schema.rs, the
#      other kinds' in their core/tests/<kind>.rs) — every such test runs, so a new kind's
#      schemas join by naming its test so;
#   2. each kind's shape tables for the validator (kinds/<kind>/src/shape.rs), made from those
#      schemas (and the team's id scope) by engine/src/validate/shape_gen.rs, called from each
#      kind's test named `committed_shape_tables_are_current` (the team's in
#      kinds/team/src/shape_gen.rs, the others' in their answer.rs) — every such test runs, so a
#      new kind's tables join by naming its test so;
#   3. the TypeScript answer types (core-js/src/answer_types.d.ts), made from the schemas by
#      core-js/src/ts_types.rs.
# Each generator is a test that compares the committed file with what it derives, and rewrites the
# file when its variable is set. `--check` (what scripts/test-all.sh runs) only compares, in the
# same order: it fails naming the first stale file and the command that fixes it — this script.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

mode=write
case "${1:-}" in
  --check) mode=check ;;
  "") ;;
  *) echo "usage: bash scripts/codegen.sh [--check]" >&2; exit 2 ;;
esac

# step VAR PACKAGE TARGET TEST: runs the generator's test (by its exact name), rewriting its file
# in write mode; fails unless exactly that one test ran and passed (a renamed test is an error, not
# a silent no-op).
step() {
  local var=$1 pkg=$2 target=$3 name=$4 out
  local set_var=(env -u "$var")
  [ "$mode" = write ] && set_var=(env "$var=1")
  if ! out=$("${set_var[@]}" cargo test -q -p "$pkg" $target -- --exact "$name" 2>&1); then
    echo "$out" >&2
    exit 1
  fi
  if ! grep -q "test result: ok. 1 passed" <<<"$out"; then
    echo "$out" >&2
    echo "codegen: $name did not run (renamed?): scripts/codegen.sh names it" >&2
    exit 1
  fi
}

# Core and every kind's crate (each folder under kinds/ is one, named roundtable-<folder>).
packages=(-p roundtable-core)
for dir in kinds/*/; do
  packages+=(-p "roundtable-$(basename "$dir")")
done

# every VAR TARGET NAME WHAT: runs every test of core and the kinds named NAME in TARGET (one per kind),
# rewriting their files in write mode; fails unless at least three (one per kind) ran and passed.
every() {
  local var=$1 target=$2 name=$3 what=$4 out ran
  local set_var=(env -u "$var")
  [ "$mode" = write ] && set_var=(env "$var=1")
  if ! out=$("${set_var[@]}" cargo test -q "${packages[@]}" $target "$name" 2>&1); then
    echo "$out" >&2
    exit 1
  fi
  ran=$(grep -o "test result: ok. [0-9]* passed" <<<"$out" | awk '{s += $4} END {print s + 0}')
  if [ "$ran" -lt 3 ]; then
    echo "$out" >&2
    echo "codegen: only $ran $what tests named $name ran (one per kind expected)" >&2
    exit 1
  fi
}

echo "== codegen ($mode) 1/3: JSON Schemas (core/schemas/)"
# Every kind's schema test, in every test target of core (at least one per kind that runs today).
every UPDATE_SCHEMAS "" committed_schemas_are_current schema
echo "== codegen ($mode) 2/3: each kind's validator shape tables (kinds/*/src/shape.rs)"
every UPDATE_SHAPES --lib committed_shape_tables_are_current "shape table"
echo "== codegen ($mode) 3/3: TypeScript answer types (core-js/src/answer_types.d.ts)"
step UPDATE_TS_TYPES roundtable-core-js --lib ts_types::tests::committed_declarations_are_current
if [ "$mode" = write ]; then
  echo "codegen: done; review \`git diff core/schemas kinds/*/src/shape.rs core-js/src/answer_types.d.ts\`"
else
  echo "codegen: every generated file is current"
fi
