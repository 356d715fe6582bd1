#!/usr/bin/env bash
# The main job on a bundled example: install, build, analyse examples/triad.s
# for Zen 5 with the loopperf CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
"$BUILD_DIR"/bin/loopperf --mcpu=znver5 examples/triad.s
