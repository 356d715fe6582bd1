#!/usr/bin/env bash
# Sanitizer build (issue 19): configures ${BUILD_DIR:-build-asan} with
# -DLOOPPERF_SANITIZE=${SANITIZE:-address,undefined} (every target: engine,
# models, CLI tools, gate, unit tests, both plugins), builds it and runs
# every test (GoogleTest + lit) there. The lit suites load the plugins into
# clang-19/llc-19/gcc-12 with g++'s ASan/UBSan runtime preloaded
# (test/lit/lit.cfg.py). Any sanitizer report fails its test.
#   scripts/sanitize.sh            # install deps, configure, build, ctest
#   JOBS=2 BUILD_DIR=build-asan scripts/sanitize.sh
# The fuzzers (fuzz/, scripts/fuzz.sh) carry their own sanitizers: not built here.
# Part of CI: scripts/test.sh runs it when CI=true (docs/DESIGN.md "Sanitizer
# build").
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh
BUILD_DIR=${BUILD_DIR:-build-asan}
JOBS=${JOBS:-$(nproc)}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} \
      -DLOOPPERF_SANITIZE="${SANITIZE:-address,undefined}" -DLOOPPERF_FUZZ=OFF >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS"
# Leaks of loopperf's own programs count; a report aborts the program (the
# lit configuration sets the same for lit's own runs).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
