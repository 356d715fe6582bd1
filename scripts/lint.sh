#!/usr/bin/env bash
# Style checks of every C++ file of the project: formatting (.clang-format,
# LLVM style) and LLVM's naming rules (.clang-tidy:
# readability-identifier-naming). Needs a configured build directory for
# compile_commands.json (BUILD_DIR, default build); both the LLVM 19 and the
# LLVM 22 trees are checked, so code under either #if branch is seen.
# scripts/test.sh runs it when CI=true (about 2 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
mapfile -t FILES < <(git ls-files '*.cpp' '*.h')
clang-format-19 --dry-run --Werror "${FILES[@]}"
echo "lint: clang-format: ${#FILES[@]} files formatted"
tidy() { # BUILD_DIR REGEX
  run-clang-tidy-19 -p "$1" -quiet -j "${JOBS:-$(nproc)}" \
    -extra-arg=-Wno-error -warnings-as-errors='readability-identifier-naming' \
    "$2" > "$1/lint-tidy.log" 2>&1 ||
    { grep -A3 'readability-identifier-naming\|error:' "$1/lint-tidy.log" | head -60
      echo "lint: naming: see $1/lint-tidy.log" >&2; exit 1; }
}
tidy "${BUILD_DIR:-build}" "^$ROOT/(engine|llvm-pass|gcc-plugin|mc|tools|test|bench)/"
if [ -f "${BUILD_DIR_LLVM22:-build-llvm22}/compile_commands.json" ]; then
  tidy "${BUILD_DIR_LLVM22:-build-llvm22}" "^$ROOT/(llvm-pass|mc|tools/loopperf)/"
fi
echo "lint: naming: no identifier breaks LLVM's naming rules"
