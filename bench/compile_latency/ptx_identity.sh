#!/usr/bin/env bash
# Compiles every bundled kernel with every bundled schedule that fits it with
# two builds of stagecraft-compile and compares what reaches the GPU:
# kernel.ptx, reference.ptx and manifest.json must be byte-identical (then
# the kernels' GPU speed cannot differ). Also compares the per-pass IR and
# kernel.ll (the latter modulo LLVM's "; preds =" comments, whose order
# follows use lists).
#   bench/compile_latency/ptx_identity.sh OLD/stagecraft-compile NEW/stagecraft-compile [OUT]
# Prints one line per compile and a summary; exit status 1 on any difference.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OLD=${1:?old stagecraft-compile}
NEW=${2:?new stagecraft-compile}
OUT=${3:-$(mktemp -d)}
mkdir -p "$OUT"
same=0 differ=0 refused=0
for asset in "$ROOT"/assets/*.mlir; do
  for schedule in "" "$ROOT"/assets/schedules/*.json; do
    name=$(basename "$asset" .mlir)${schedule:++$(basename "$schedule" .json)}
    args=("$asset" --no-cubin -q)
    [ -n "$schedule" ] && args+=(--schedule "$schedule")
    "$OLD" "${args[@]}" -o "$OUT/old-$name" >"$OUT/old-$name.log" 2>&1
    old_rc=$?
    "$NEW" "${args[@]}" -o "$OUT/new-$name" >"$OUT/new-$name.log" 2>&1
    new_rc=$?
    if [ $old_rc -ne 0 ] || [ $new_rc -ne 0 ]; then
      if [ $old_rc -ne 0 ] && [ $new_rc -ne 0 ] && cmp -s "$OUT/old-$name.log" "$OUT/new-$name.log"; then
        echo "refused by both, same diagnostics: $name"
        refused=$((refused + 1))
      else
        echo "DIFFERENT OUTCOME: $name (old exit $old_rc, new exit $new_rc)"
        differ=$((differ + 1))
      fi
      continue
    fi
    bad=""
    for f in kernel.ptx reference.ptx manifest.json schedule.json $(cd "$OUT/old-$name" && ls ir/*); do
      cmp -s "$OUT/old-$name/$f" "$OUT/new-$name/$f" || bad="$bad $f"
    done
    diff -q <(sed 's/; preds = .*//' "$OUT/old-$name/kernel.ll") \
            <(sed 's/; preds = .*//' "$OUT/new-$name/kernel.ll") >/dev/null || bad="$bad kernel.ll"
    if [ -z "$bad" ]; then
      echo "identical: $name"
      same=$((same + 1))
    else
      echo "DIFFERENT: $name:$bad"
      differ=$((differ + 1))
    fi
  done
done
echo "$same identical, $refused refused by both alike, $differ different"
[ $differ -eq 0 ]
