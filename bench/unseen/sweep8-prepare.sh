#!/usr/bin/env bash
# Build machine: every line of a held-out sweep's gpu-list.txt (default the eighth's, bench/unseen/
# sweep-2026-11-29b: a kernel with its sizes, schedule or cluster, compiled there but never run),
# by the compiler checked out now; those it refuses are listed (a03 at S = 16384 is now refused:
# the sweep's B1).
#   bash bench/unseen/sweep8-prepare.sh [NAME LIST]   (NAME: the .dev folder; LIST: a gpu-list.txt)
#   GPU host: ROUNDS=1 bash bench/timeline/run-bundles-on-gpu.sh .dev/sweep8 OUT  (carry it)
set -euo pipefail
. "$(dirname "$0")/../timeline/prepare-lib.sh"
fresh_dev "${1:-sweep8}"
mkdir -p "$DEV/ir"
n=0
while IFS= read -r line; do
  line=${line%%#*}
  # shellcheck disable=SC2206
  words=($line)
  [ ${#words[@]} -gt 0 ] || continue
  ir=$ROOT/${words[0]}
  stem=$(basename "$ir" .mlir)
  args=()
  for w in "${words[@]:1}"; do
    case $w in
      --schedule=*) args+=(--schedule "$ROOT/${w#--schedule=}") ;;
      --cluster=*) args+=("$w") ;;
      *) args+=("$w") ;;
    esac
  done
  n=$((n + 1))
  cp "$ir" "$DEV/ir/$stem.mlir"
  bundle "$ir" "$DEV/bundles/$stem--l$n" "${args[@]}" > /dev/null 2>&1 || echo "refused: line $n: $line"
done < "${2:-$ROOT/bench/unseen/sweep-2026-11-29b/gpu-list.txt}"
find "$DEV" -name kernel.ptx -delete
python3 "$ROOT/bench/timeline/predict_bundles.py" "$DEV" > "$DEV/predicted.jsonl" || true
cp "$ROOT/build/bin/stagecraft-run" "$DEV/"
du -sh "$DEV"
