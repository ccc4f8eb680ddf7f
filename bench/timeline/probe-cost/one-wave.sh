#!/usr/bin/env bash
# Where the records' +5-7% goes in a launch of one wave (bench/results/epilogue-zones-h100-
# 2026-11-27: the partial-tile GEMMs at 1000x1048x528, 40 CTAs, 4 recording, 9 iterations,
# where the slowest CTA sets the launch's time and a recording CTA is). The instrumented PTX of
# the 128x256 GEMM and the SwiGLU dual GEMM at that size, default 4 recording CTAs, rewritten:
#   full      as the lowering emits it
#   prefetch  every thread 0 of a warp group prefetches the event buffer's first line at the
#             entry (when the buffer is not null): the buffer's address translated before the
#             first record's store, which is the first access of this SM to that allocation
#   nostore   the records' stores deleted (the stamps' reads and the counters kept): the
#             instructions without the memory traffic
#   noproducer, noconsumers   only the producer's (its units' records), only the consumers'
#             records' stores deleted: whose records cost the launch
#   cshared   the consumers' records stored to a 16-byte scratch slot of shared memory past
#             the kernel's (the manifest's dynamic shared memory raised by 64 bytes)
#   cnotimer  the consumers' records store 0 for the stamp (no %globaltimer read)
#   cafter    the consumers' stamps read where they are, their stores moved after the unit's
#             wgmma.commit_group (the next one in the PTX, before the next record; the
#             epilogue's record, which has none, as it is)
#   relaxed   every plain mbarrier.arrive (the consumers' releases of a stage) made
#             .relaxed.cta instead of the default .release: whether the releases wait for
#             the records' global stores before them (an experiment only: a relaxed release
#             does not order a consumer's generic reads of the stage before the next load;
#             the PTX's .version raised to 8.6 for it)
#   v86       full with only the .version raised to 8.6 (relaxed's control)
#   noepilogue  only the epilogue records' stores deleted
#   cs, na, wt  every record stored with st.global.cs (streaming), .L1::no_allocate, .wt
#   epilast   the epilogue record's stamp read where it is, its store moved to just before the
#             next record (the end marker after the epilogue's stores): the epilogue's
#             fence.proxy.async (MEMBAR.ALL.CTA in the SASS) then has no record store to wait for
# Build machine:  bash bench/timeline/probe-cost/one-wave.sh prepare
# GPU host:       bash bench/timeline/probe-cost/ab-overhead.sh .dev/one-wave/bundles \
#                   .dev/one-wave/stagecraft-run OUT 4                 (carry .dev/one-wave)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DEV=$ROOT/.dev/one-wave
case ${1:?prepare} in
  prepare)
    rm -rf "$DEV" && mkdir -p "$DEV/base" "$DEV/bundles"
    sizes=(--size=M=1000 --size=N=1048 --size=K=528)
    bash "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/assets/gemm.mlir" "$DEV/base/gemm" \
      "${sizes[@]}" --with-timeline
    bash "$ROOT/bench/timeline/compile-bundle.sh" "$ROOT/bench/unseen/swiglu_dual_gemm.mlir" \
      "$DEV/base/swiglu" "${sizes[@]}" --with-timeline
    for b in "$DEV"/base/*/; do
      for v in ${VARIANTS:-full prefetch nostore}; do
        d=$DEV/bundles/$(basename "$b")--$v
        cp -r "$b" "$d"
        python3 "$ROOT/bench/timeline/probe-cost/one_wave_edit.py" "$d" "$v"
        "${PTXAS:-/usr/local/cuda/bin/ptxas}" -arch=sm_90a "$d/timeline.ptx" -o "$d/timeline.cubin"
      done
    done
    cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
    du -sh "$DEV" ;;
esac
