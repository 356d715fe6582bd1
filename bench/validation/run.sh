#!/usr/bin/env bash
# run.sh - regenerates bench/results/validation.{md,csv,png}: every kernel of
# bench/suite compiled by clang-19 and gcc-12 (-O2/-O3, several -march),
# measured on this host with loopperf-measure, predicted by loopperf and
# llvm-mca-19 (see validate.py and bench/README.md).
#
#   BUILD_DIR=build bench/validation/run.sh [--quick] [--rounds=N] [--mcpu=CPU] [--mca-mcpu=CPU]
#
# Needs a build (scripts/build.sh) and, for the plot, python3-matplotlib
# (installed here from Debian if missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-build}
case "$build" in /*) ;; *) build=$root/$build ;; esac
if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-matplotlib >/dev/null || \
    echo "run.sh: python3-matplotlib not installed; the report will have no PNG" >&2
fi
cmake --build "$build" --target loopperf loopperf-measure >/dev/null
exec /usr/bin/python3 "$root/bench/validation/validate.py" --build "$build" "$@"
