#!/usr/bin/env bash
# Coverage-guided fuzzing of everything a stranger can hand Roundtable, on the stable toolchain:
# libFuzzer (libfuzzer-sys) with the SanitizerCoverage flags cargo-fuzz passes, minus the
# nightly-only sanitizer (`cargo fuzz -s none` would do the same but needs `-Z` flags; this needs
# nothing but a C++ compiler, which scripts/install-tools.sh --test installs).
#
#   scripts/fuzz.sh SECONDS [TARGET…]
#
# runs each target (default: all five) for SECONDS, one after the other on one core, then prints
# per target its executions, executions per second, corpus size and crashes. Every panic, failed
# assertion, timeout (> 10 s for one input) or out-of-memory (> 2 GB) is a crash: its input is
# kept in fuzz/artifacts/TARGET/ and the script exits 1. Replay one with
#   fuzz/target/x86_64-unknown-linux-gnu/release/TARGET fuzz/artifacts/TARGET/crash-…
# then fix the bug and add the input as a fixture of the normal test suite.
# The corpus grows in fuzz/corpus/TARGET/ across runs (ignored by git); seeds built from the test
# fixtures and from demo sessions of both kinds are written to fuzz/seeds/TARGET/ at each run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET…]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(validate_step answer import share_link markdown)

host=$(rustc -vV | awk '/^host:/ { print $2 }')
# --target keeps these flags off build scripts and proc macros (as cargo-fuzz does).
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks"
echo "building the fuzz targets (release, coverage-instrumented)…"
cargo build --release --manifest-path fuzz/Cargo.toml --target "$host" \
  $(printf -- '--bin %s ' "${targets[@]}")

max_len() {
  case $1 in
    import) echo 1048576 ;;      # files up to 1 MB (the 50 MB bound is checked before parsing)
    share_link) echo 131072 ;;   # past the 64 K-character link bound
    markdown) echo 4096 ;;       # documents of up to 4 KB (long ones: the linear-time test)
    *) echo 65536 ;;
  esac
}

mkdir -p fuzz/logs
failed=0
rows=()
for t in "${targets[@]}"; do
  bin="fuzz/target/$host/release/$t"
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  rm -rf "fuzz/seeds/$t"
  before=$(find "fuzz/artifacts/$t" -type f | wc -l)
  echo "fuzzing $t for ${seconds}s…"
  status=0
  RT_FUZZ_SEED_DIR="fuzz/seeds/$t" "$bin" "fuzz/corpus/$t" "fuzz/seeds/$t" \
    -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="fuzz/artifacts/$t/" -print_final_stats=1 \
    >"fuzz/logs/$t.log" 2>&1 || status=$?
  after=$(find "fuzz/artifacts/$t" -type f | wc -l)
  crashes=$((after - before))
  runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "fuzz/logs/$t.log" | tail -1)
  speed=$(awk '/stat::average_exec_per_sec/ { print $2 }' "fuzz/logs/$t.log" | tail -1)
  corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
  if [ "$status" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    failed=1
    echo "  $t: CRASH (exit $status) — see fuzz/logs/$t.log and fuzz/artifacts/$t/"
    grep -m3 -E "panicked|ERROR: libFuzzer" "fuzz/logs/$t.log" | sed 's/^/    /' || true
  fi
  rows+=("$(printf '%-14s %8ss %14s %10s %8s %8s' "$t" "$seconds" "${runs:-?}" "${speed:-?}" "$corpus" "$crashes")")
done

printf '\n%-14s %9s %14s %10s %8s %8s\n' target time executions exec/s corpus crashes
printf '%s\n' "${rows[@]}"
total=0
for r in "${rows[@]}"; do
  n=$(awk '{ print $3 }' <<<"$r")
  [[ $n =~ ^[0-9]+$ ]] && total=$((total + n))
done
echo "total executions: $total"
exit $failed
