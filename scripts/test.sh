#!/usr/bin/env bash
# The test command: install dependencies, build both build directories
# (scripts/build.sh: build = LLVM 19, everything; build-llvm22 = LLVM 22,
# what depends on LLVM), run every test of both through ctest (GoogleTest
# unit tests and the lit/FileCheck suites; the same lit suite runs with
# clang-19 in the one and clang-22 in the other).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-$(nproc)}"
ctest --test-dir "${BUILD_DIR_LLVM22:-build-llvm22}" --output-on-failure -j "${JOBS:-$(nproc)}"
# CI (CI=true) also builds the tree with ASan + UBSan and runs every unit and
# lit test there (scripts/sanitize.sh, build-asan; about 11 minutes on 2
# cores). Elsewhere: SANITIZE_TESTS=1 scripts/test.sh, or scripts/sanitize.sh.
# CI also checks formatting and LLVM's naming rules (scripts/lint.sh, about
# 2 minutes on 2 cores); elsewhere: LINT=1 scripts/test.sh, or scripts/lint.sh.
if [ "${LINT:-${CI:-}}" = true ] || [ "${LINT:-}" = 1 ]; then
  scripts/lint.sh
fi
if [ "${SANITIZE_TESTS:-${CI:-}}" = true ] || [ "${SANITIZE_TESTS:-}" = 1 ]; then
  SKIP_DEPS=1 scripts/sanitize.sh
fi
