#!/usr/bin/env bash
# Sets up, builds and runs every test: GoogleTest, lit/FileCheck, GUI tests
# (under Xvfb), then the bounded fuzz runs (build-fuzz, label fuzz; about a
# minute). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
FUZZ_BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
scripts/setup.sh
scripts/fuzz-build.sh
status=0
(cd "$BUILD_DIR" && ctest --output-on-failure -j"${JOBS:-2}") || status=$?
(cd "$FUZZ_BUILD_DIR" && ctest --output-on-failure -j"${JOBS:-2}" -L fuzz) || status=$?
exit "$status"
