#!/usr/bin/env bash
# Installs everything loopperf needs from Debian 12's own packages: LLVM 19
# (the main build) and LLVM 22 (build-llvm22, scripts/build.sh).
set -euo pipefail
PKGS=(clang-19 llvm-19-dev llvm-19-tools libclang-rt-19-dev lld-19
      clang-22 llvm-22-dev llvm-22-tools libclang-rt-22-dev lld-22 gcc-12-plugin-dev g++ valgrind
      libfmt-dev nlohmann-json3-dev libgtest-dev cmake ninja-build python3 help2man pkg-config
      clang-format-19 clang-tidy-19
      zlib1g-dev libzstd-dev libedit-dev libxml2-dev libcurl4-openssl-dev libffi-dev libncurses-dev)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
