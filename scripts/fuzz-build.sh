#!/usr/bin/env bash
# Builds the libFuzzer targets (test/fuzz, docs/testing.md#fuzzing) in their
# own build directory with Debian's clang-22: core/ and passes/ with coverage,
# ASan and UBSan, linked with the same shared libMLIR/libLLVM as the main
# build. Idempotent: reuses the build directory and ccache. Run
# scripts/setup.sh first (it installs clang-22 and libclang-rt-22-dev).
#   FUZZ_BUILD_DIR  build directory (default: build-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ ! -f "$FUZZ_BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$FUZZ_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSTAGECRAFT_FUZZ=ON -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
fi
ninja -C "$FUZZ_BUILD_DIR" -j"${JOBS:-2}"
