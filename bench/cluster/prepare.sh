#!/usr/bin/env bash
# On the build machine: the bundles of the cluster benchmark (issue: persistent kernels ahead
# of cuBLAS; clusters with TMA multicast) into .dev/cluster: assets/persistent_gemm_cluster.mlir
# with clusters of 1, 2 and 4 CTAs (the shared B loaded once per cluster), beside the grouped
# persistent GEMM without clusters, at 8192^3, 4096^3 and 8000x8064x4000.
#   bench/cluster/prepare.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COMPILE=${COMPILE:-$ROOT/build/bin/stagecraft-compile}
DEV=$ROOT/.dev/cluster
rm -rf "$DEV" && mkdir -p "$DEV/bundles"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
A=$ROOT/assets
source "$ROOT/bench/lib/bundle.sh"
for size in 8192 4096 8000x8064x4000; do
  case $size in
    8192) args=() ;;
    4096) args=(--size M=4096 --size N=4096 --size K=4096) ;;
    *) args=(--size M=8000 --size N=8064 --size K=4000) ;;
  esac
  compile_bundle "grouped-$size" "$A/persistent_gemm_grouped.mlir" "${args[@]}"
  for c in 1 2 4; do
    compile_bundle "cluster$c-$size" "$A/persistent_gemm_cluster.mlir" --cluster $c "${args[@]}"
  done
done
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"; ls "$DEV/bundles" | wc -l
