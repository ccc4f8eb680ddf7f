#!/usr/bin/env bash
# Sets up, builds and runs every test: GoogleTest, lit/FileCheck, GUI tests
# (under Xvfb). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh
cd "$BUILD_DIR"
ctest --output-on-failure -j"${JOBS:-2}"
