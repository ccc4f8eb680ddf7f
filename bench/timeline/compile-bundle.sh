#!/usr/bin/env bash
# Compiles IR into a bundle that travels to the GPU host: only the files the runner reads
# (manifest, cubin, PTX, the reference, the schedule; with --with-timeline the instrumented
# kernel and its ptxas report too), not the per-pass IR. The prepare scripts
# of bench/timeline/* share it.
#   bench/timeline/compile-bundle.sh IR BUNDLE [stagecraft-compile options...]
# STAGECRAFT_COMPILE=PATH compiles with another build (two compilers side by side).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ir=${1:?IR} bundle=${2:?BUNDLE}
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${STAGECRAFT_COMPILE:-$ROOT/build/bin/stagecraft-compile}" "$ir" "$@" -o "$work/b" -q
mkdir -p "$bundle"
for f in manifest.json kernel.cubin kernel.ptx reference.ptx schedule.json \
         timeline.cubin timeline.ptx timeline-ptxas.txt; do
  if [ -f "$work/b/$f" ]; then cp "$work/b/$f" "$bundle/"; fi
done
