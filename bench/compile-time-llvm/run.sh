#!/bin/sh
# Compile-time overhead of the loopperf clang plugin on a generated
# multi-file C project (gen_workload.py; no licensed real project is
# available offline). Every configuration compiles every file; the
# configurations are interleaved within each repetition so that frequency
# drift and the other load on the machine hit all of them alike. Reports the
# median wall time per configuration and ratios to the matching baseline.
#
#   bench/compile-time-llvm/run.sh [BUILD_DIR] [REPS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build-pass}
reps=${2:-7}
plugin=$build/lib/loopperf.so
clang=${CLANG:-clang-19}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_workload.py" "$work/src" 24 40
flags="-O2 -march=znver5 -c"

# name | extra flags
configs='base|
plugin|-fpass-plugin='"$plugin"'
base-R|-Rpass=loopperf -Rpass-analysis=loopperf
plugin-R|-fpass-plugin='"$plugin"' -Rpass=loopperf -Rpass-analysis=loopperf'

compile_all() { # extra flags -> seconds
  start=$(date +%s.%N)
  for f in "$work"/src/*.c; do
    # shellcheck disable=SC2086
    $clang $flags $1 "$f" -o "$work/out.o" 2>/dev/null
  done
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

: > "$work/times"
r=0
while [ $r -lt "$reps" ]; do
  echo "$configs" | while IFS='|' read -r name extra; do
    echo "$name $(compile_all "$extra")" >> "$work/times"
  done
  r=$((r + 1))
done

python3 - "$work/times" "$reps" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    name, t = line.split()
    times.setdefault(name, []).append(float(t))
med = {k: statistics.median(v) for k, v in times.items()}
print(f"24 files x 40 functions, clang-19 -O2 -march=znver5, {sys.argv[2]} interleaved repetitions")
print()
print("| configuration | median s | all runs s |")
print("|---|---|---|")
for k in ["base", "plugin", "base-R", "plugin-R"]:
    print(f"| {k} | {med[k]:.3f} | {' '.join(f'{t:.2f}' for t in times[k])} |")
print()
print(f"plugin loaded, no remarks requested: {100 * (med['plugin'] / med['base'] - 1):+.2f} %")
print(f"plugin with -Rpass/-Rpass-analysis=loopperf vs the same flags without it: "
      f"{100 * (med['plugin-R'] / med['base-R'] - 1):+.2f} %")
PY
