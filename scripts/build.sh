#!/usr/bin/env bash
# Configures and builds loopperf:
#   ${BUILD_DIR:-build}                 against LLVM 19, everything;
#   ${BUILD_DIR_LLVM22:-build-llvm22}   against LLVM 22, only what depends on
#       LLVM (the MC translator, the CLI, the clang/llc plugin, the gate, the
#       model generator, with the engine and models they link) and the lit
#       suites that drive them (LOOPPERF_LLVM_PARTS_ONLY; CMakeLists.txt says
#       why).
# `scripts/build.sh 19` or `scripts/build.sh 22` builds one of the two.
# CI builds (CI=true) treat warnings as errors (LOOPPERF_WERROR).
set -euo pipefail
cd "$(dirname "$0")/.."
WERROR=OFF
[ "${CI:-}" = true ] && WERROR=ON
which=${1:-all}
case "$which" in all|19|22) ;; *) echo "usage: $0 [all|19|22]" >&2; exit 2 ;; esac
if [ "$which" != 22 ]; then
  BUILD_DIR=${BUILD_DIR:-build}
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} \
    -DLOOPPERF_LLVM_VERSION=19 -DLOOPPERF_WERROR=$WERROR >/dev/null
  cmake --build "$BUILD_DIR" -j "${JOBS:-$(nproc)}"
fi
if [ "$which" != 19 ]; then
  BUILD_DIR_LLVM22=${BUILD_DIR_LLVM22:-build-llvm22}
  cmake -S . -B "$BUILD_DIR_LLVM22" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} \
    -DLOOPPERF_LLVM_VERSION=22 -DLOOPPERF_LLVM_PARTS_ONLY=ON -DLOOPPERF_WERROR=$WERROR >/dev/null
  cmake --build "$BUILD_DIR_LLVM22" -j "${JOBS:-$(nproc)}"
fi
