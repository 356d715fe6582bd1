#!/usr/bin/env bash
# run.sh STUDY_BUILD OUT: the steady-state study's runs (README.md). STUDY_BUILD
# is a build with -DLOOPPERF_SIM_STUDY=ON (internal, never shipped): every
# simulation run goes on past its decision and appends its retire cycles to
# $LOOPPERF_SIM_STUDY_OUT. For every .s file of the repository and of
# ../shared/measurements, on znver5, skylake-avx512 and epyc-kvm-host: the
# CLI's --simulate --json (the loop, then its probes) and the runs' lines;
# then loopperf-bench-engine's mix bodies (znver5, steady state).
set -eu
BUILD=$(cd "$1" && pwd); OUT=$2
SRC=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
{ (cd "$SRC" && git ls-files '*.s' | sed "s|^|$SRC/|")
  find "$SRC/../shared/measurements" -name '*.s' 2>/dev/null | sort; } > "$OUT/.files"
while read -r F; do
  rel=$(realpath --relative-to="$SRC/.." "$F"); key=$(echo "$rel" | tr '/' '_')
  for cpu in znver5 skylake-avx512 epyc-kvm-host; do
    rm -f "$OUT/$key.$cpu.jsonl"
    (cd "$(dirname "$F")" && LOOPPERF_SIM_STUDY_OUT="$OUT/$key.$cpu.jsonl" \
      timeout 600 "$BUILD/bin/loopperf" --mcpu=$cpu --simulate --json "$F" \
      > "$OUT/$key.$cpu.json" 2>/dev/null || true)
  done
done < "$OUT/.files"
for n in 5 20 50 200; do
  rm -f "$OUT/bench-mix-$n.znver5.jsonl"
  LOOPPERF_SIM_STUDY_OUT="$OUT/bench-mix-$n.znver5.jsonl" \
    "$BUILD/bin/loopperf-bench-engine" --once --sizes=$n --simulate-steady > /dev/null
done
echo "study: $(wc -l < "$OUT/.files") files -> $OUT"
