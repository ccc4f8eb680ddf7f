#!/usr/bin/env bash
# Installs what Stagecraft needs (only what is missing), configures and builds.
# Idempotent: re-running reuses the build directory and ccache.
#   BUILD_DIR   build directory (default: build)
#   STAGECRAFT_TARGETS  ninja targets to build (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}

PACKAGES=(cmake ninja-build g++ ccache python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libgtest-dev libglfw3-dev libimgui-dev libgl1-mesa-dev libgl1-mesa-dri
  xvfb xauth
  libstb-dev fonts-dejavu-core  # the app: PNG screenshots (stb_image_write), legible fonts
  clang-22 libclang-rt-22-dev)  # the fuzz build (scripts/fuzz-build.sh, run by scripts/test.sh)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/ptxas ]; then
  echo "setup: note: no CUDA toolkit at /usr/local/cuda: the profiler and ptxas steps are skipped" >&2
fi

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
ccache --max-size=5G >/dev/null 2>&1 || true
# Hits across clones: CI builds in a fresh clone at another path.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
# 2 cores: one build at a time, two jobs.
ninja -C "$BUILD_DIR" -j"${JOBS:-2}" ${STAGECRAFT_TARGETS:-}
