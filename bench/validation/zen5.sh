#!/usr/bin/env bash
# zen5.sh - regenerates bench/results/validation-zen5.{md,csv,png}: the Zen 5
# measurements in ../shared/measurements/zen5 (the kernel suite measured on
# an AMD EPYC family 26 model 2, with that machine's own assembly) predicted
# again with the current znver5 model and llvm-mca-19 -mcpu=znver5. No
# measurement runs here, so any x86-64 host can run it.
#
#   BUILD_DIR=build bench/validation/zen5.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-build}
case "$build" in /*) ;; *) build=$root/$build ;; esac
data=${ZEN5_DATA:-$root/../shared/measurements/zen5}
cmake --build "$build" --target loopperf >/dev/null
exec /usr/bin/python3 "$root/bench/validation/validate.py" --build "$build" \
  --mcpu znver5 --baseline-mcpu znver4 --mca-mcpu znver5 --host-cpu znver5 \
  --measured "$data/validation-zen5.csv" \
  --measured-label "shared/measurements/zen5/validation-zen5.csv (2026-11-23, Zen 5)" \
  --asm-dir "$data/suite-asm" \
  --host "AMD EPYC, CPUID family 26 model 2 (Zen 5, KVM guest with AVX-512)" \
  --notes "$root/bench/validation/notes-zen5.md" --name validation-zen5 \
  --script bench/validation/zen5.sh "$@"
