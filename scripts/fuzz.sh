#!/usr/bin/env bash
# The libFuzzer targets of fuzz/ (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET [MINUTES]   fuzz one target (default 5 minutes)
#   scripts/fuzz.sh all [MINUTES]      each target in turn, MINUTES each
#   scripts/fuzz.sh --replay [BIN_DIR] every target once over its seeds and
#                                      fuzz/regressions (ctest's fuzz-smoke)
#   scripts/fuzz.sh --list             the targets
#
# TARGET: asm, model, gate-yaml, gate-gcc, gate-json. Builds the fuzzers
# with clang++-19 into ${FUZZ_BUILD_DIR:-build-fuzz} first (not for
# --replay, which is given a build). The growing corpus and any crash
# (crash-*, leak-*, timeout-*, oom-*) go to ${FUZZ_BUILD_DIR}/work/TARGET/.
# Fuzzing runs under nice with one job; FUZZ_ARGS adds libFuzzer options.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
targets=(asm model gate-yaml gate-gcc gate-json)

# The seed inputs of a target: the project's own test inputs and real
# compiler output (fuzz/corpus, made by fuzz/make-corpus.sh), plus every
# input that once crashed it (fuzz/regressions/TARGET).
seeds_for() {
  local t=$1
  shopt -s nullglob
  local files=()
  case $t in
    asm) files=("$root"/test/lit/cli/*.s "$root"/test/lit/cli/Inputs/*.s "$root"/examples/*.s
                "$root"/bench/kernels/*.s "$root"/fuzz/model-kernels.s) ;;
    model) files=("$root"/models/overlays/*.json "$root"/test/lit/cli/Inputs/*.json) ;;
    gate-yaml) files=("$root"/test/lit/gate/Inputs/records/*.opt.yaml) ;;
    gate-gcc) files=() ;;
    gate-json) files=("$root"/test/lit/gate/Inputs/records/*.json) ;;
    *) echo "fuzz.sh: unknown target '$t' (${targets[*]})" >&2; exit 2 ;;
  esac
  files+=("$root"/fuzz/corpus/"$t"/* "$root"/fuzz/regressions/"$t"/*)
  printf '%s\n' "${files[@]}"
}

# Extra libFuzzer options per target: the assembly and model targets print
# the CLI's diagnostics (stderr closed; libFuzzer keeps its own reports).
options_for() {
  case $1 in
    asm|model) echo "-close_fd_mask=2" ;;
    *) echo "" ;;
  esac
}

case ${1:-} in
  --list) printf '%s\n' "${targets[@]}"; exit 0 ;;
  --replay)
    bin=${2:-$root/${FUZZ_BUILD_DIR:-build-fuzz}}/bin
    [ -d "$bin" ] || bin=${2:-}
    status=0
    for t in "${targets[@]}"; do
      mapfile -t seeds < <(seeds_for "$t")
      # Each input runs once, nothing is written; a crash fails the test.
      if "$bin/fuzz-$t" $(options_for "$t") "${seeds[@]}" >"${TMPDIR:-/tmp}/fuzz-replay-$t.log" 2>&1; then
        echo "fuzz-$t: ${#seeds[@]} inputs replayed"
      else
        echo "fuzz-$t: FAILED on replay; log:"; tail -n 40 "${TMPDIR:-/tmp}/fuzz-replay-$t.log"
        status=1
      fi
    done
    exit $status ;;
  ""|-h|--help) sed -n '2,16p' "$0"; exit 0 ;;
esac

target=$1
minutes=${2:-5}
build=$root/${FUZZ_BUILD_DIR:-build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root/fuzz" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-19 \
        -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j "${JOBS:-2}"

run_one() {
  local t=$1 work=$build/work/$1
  mkdir -p "$work/corpus" "$work/seeds" "$work/crashes"
  mapfile -t seeds < <(seeds_for "$t")
  cp -f "${seeds[@]}" "$work/seeds/"
  echo "fuzz-$t: $minutes min, corpus $work/corpus, crashes in $work/crashes"
  # shellcheck disable=SC2046,SC2086
  nice "$build/bin/fuzz-$t" -max_total_time=$((minutes * 60)) -timeout=20 -rss_limit_mb=4096 \
       -print_final_stats=1 -artifact_prefix="$work/crashes/" $(options_for "$t") \
       ${FUZZ_ARGS:-} "$work/corpus" "$work/seeds" 2>&1 | tee "$work/last-run.log" | \
       grep -E '^(#[0-9]+ *(INITED|DONE)|stat::|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|.*deadly signal)' || true
}

if [ "$target" = all ]; then
  for t in "${targets[@]}"; do run_one "$t"; done
else
  run_one "$target"
fi
