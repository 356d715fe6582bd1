#!/usr/bin/env bash
# The test command: install dependencies, build, run every test (GoogleTest
# unit tests and the lit/FileCheck suites) through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${JOBS:-$(nproc)}"
