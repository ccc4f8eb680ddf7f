#!/usr/bin/env bash
# Build machine: do L2 eviction priorities on the TMA loads keep the CTAs that share a box in
# step? The launches that drift apart (bench/results/ncu-modes-h100-2026-11-27: the 128x256
# GEMM's column raster five launches in six, the 128x128 GEMM with its loads four ahead every
# launch) read 1.4-1.9x the DRAM bytes and lose 25-30%; their far-shared operand (B in the
# column raster, its sharers 32 CTAs apart; A with the default raster, 64 apart) is the one a
# longer stay in the L2 would serve. Each kernel as compiled (NAME--base) and with its loads'
# PTX edited (edit-ptx.sh) to evict_last on the far-shared operand, evict_first on the other.
#   bash bench/timeline/l2-hints/prepare.sh                                           # .dev/l2-hints
#   GPU host: CLOCKS=1 LAUNCHES=3 bash bench/timeline/ncu/ncu-on-gpu.sh .dev/l2-hints OUT
set -euo pipefail
. "$(dirname "$0")/../prepare-lib.sh"
fresh_dev l2-hints
EDIT=$ROOT/bench/timeline/l2-hints/edit-ptx.sh
hinted() { # BUNDLE SPEC...: BUNDLE--base and BUNDLE--SPEC for each
  local b=$1
  shift
  mv "$b" "$b--base"
  for spec in "$@"; do
    local name=${spec//,/_}
    bash "$EDIT" "$b--base" "$b--${name//=/-}" "$spec"
  done
}
raster_bundle gemm columns
hinted "$DEV/bundles/raster-gemm--columns" "1=last" "0=first,1=last" "0=last,1=last"
raster_bundle gemm rows
hinted "$DEV/bundles/raster-gemm--rows" "0=last" "0=last,1=first"
sched_bundle gemm_128x128 ws-ahead4-wait0
hinted "$DEV/bundles/sched-gemm_128x128--ws-ahead4-wait0" "0=last" "0=last,1=first"
raster_bundle gemm_128x128 columns
hinted "$DEV/bundles/raster-gemm_128x128--columns" "1=last"
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
