#!/usr/bin/env bash
# The main job on the bundled example: install, build (LLVM 19 only), then
#  1. a real compile of examples/triad.c by clang-19 with the loopperf plugin,
#     printing a remark per innermost loop (-Rpass=loopperf), and
#  2. the loopperf CLI's full report on the same loop as assembly
#     (examples/triad.s), for Zen 5.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh 19
BUILD_DIR=${BUILD_DIR:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== clang-19 -O3 -march=znver5 -fpass-plugin=$BUILD_DIR/lib/loopperf.so -Rpass=loopperf examples/triad.c"
clang-19 -O3 -march=znver5 -fpass-plugin="$BUILD_DIR"/lib/loopperf.so -Rpass=loopperf \
  -c examples/triad.c -o "$out/triad.o"
echo
echo "== $BUILD_DIR/bin/loopperf --mcpu=znver5 examples/triad.s"
"$BUILD_DIR"/bin/loopperf --mcpu=znver5 examples/triad.s
