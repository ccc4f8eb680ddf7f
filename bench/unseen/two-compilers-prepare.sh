#!/usr/bin/env bash
# Build machine: the given loops compiled by the compiler checked out now as NAME--TAG into
# .dev/DEVNAME, so that two compilers' bundles run side by side in one call (the previous
# compiler: STAGECRAFT_COMPILE=<its build>/stagecraft-compile ... before). For a change whose
# kernels a PTX comparison of the two builds lists (bench/compile_latency/ptx_identity.sh, or
# compiling every loop with both); the specific scripts beside it predate it.
#   bash bench/unseen/two-compilers-prepare.sh DEVNAME TAG [--fresh] LOOP.mlir...
#   GPU host: ROUNDS=3 bash bench/timeline/run-bundles-on-gpu.sh .dev/DEVNAME OUT  (carry .dev/DEVNAME)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
NAME=${1:?DEVNAME}
TAG=${2:?TAG}
shift 2
DEV=$ROOT/.dev/$NAME
if [[ ${1:-} == --fresh ]]; then rm -rf "$DEV"; shift; fi
mkdir -p "$DEV/bundles" "$DEV/ir"
tagged_bundles "$TAG" "$@"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
